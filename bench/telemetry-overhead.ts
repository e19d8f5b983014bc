// bench/telemetry-overhead: what tracing costs the loop. The same conversations through the real ChatService (a
// SQLite store in a temporary directory, FnCallAgent, a zero-latency scripted model over HTTP in a child process:
// four model calls and three tool calls, so eight spans a run), in alternating blocks with tracing off and with every
// run exported to a local OTLP receiver (another child process) through the OpenTelemetry SDK. With a model that
// answers at once the loop is all CPU, so this is the worst case: against a real model the same cost hides behind
// the network wait.
// Prints median ms per conversation for both, the ratio of the medians and the median of per-block ratios, and the
// spans the receiver got.
// Run: npm run bench:telemetry [-- --blocks 8 --per-block 50 --warmup 300 --capture]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { FnCallAgent } from '../lib/agent';
import { ChatService } from '../lib/chat/service';
import { openSqliteStore } from '../lib/store/sqlite';
import { flushTelemetry, startTelemetry, stopTelemetry } from '../lib/telemetry';
import { BaseTool } from '../tools';
import { machineLoad } from './support/app';
import { flag } from './support/flags';
import { quantile } from './support/stats';

class Noop extends BaseTool {
  name = 'noop';
  description = 'Does nothing, quickly.';
  parameters = { type: 'object', properties: { step: { type: 'integer' } }, required: ['step'] };
  async call(params: string) {
    return `step ${this.parseArgs<{ step: number }>(params).step} done`;
  }
}

const BLOCKS = Number(flag('blocks', '8'));
const PER_BLOCK = Number(flag('per-block', '50'));
const WARMUP = Number(flag('warmup', '300'));
/** Also put prompts, completions, arguments and results into the spans (OTEL_CAPTURE_CONTENT=1). */
const CAPTURE = process.argv.includes('--capture');

/** A child process that prints its URL on its first line (the model server, the receiver). */
async function child(args: string[]): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', (line) => resolve(line.replace(/^listening /, '')));
    proc.once('exit', (code) => reject(new Error(`${args[0]} exited (${code})`)));
  });
  return { url, proc };
}

async function main(): Promise<void> {
  const model = await child(['bench/loop-server.ts']);
  const receiver = await child(['scripts/otlp-receiver/main.ts']);
  const dir = mkdtempSync(path.join(tmpdir(), 'telemetry-bench-'));
  const store = openSqliteStore(path.join(dir, 'bench.db'));
  const tool = new Noop();
  const service = new ChatService(
    store,
    () =>
      new FnCallAgent({
        llm: { model: 'bench', baseURL: model.url, apiKey: 'bench', fncallMode: 'native' },
        functionList: [tool],
        name: 'assistant',
      }),
  );
  const tracing = {
    url: `${receiver.url}/v1/traces`,
    captureContent: CAPTURE,
    serviceName: 'agent-studio-bench',
    // The specification's defaults (what OTEL_BSP_* give when unset).
    batch: { maxQueueSize: 2048, maxExportBatchSize: 512, scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000 },
  };

  async function conversation(): Promise<number> {
    const t0 = performance.now();
    const run = service.send({ content: 'Run the three steps, then tell me.' });
    let reason = '';
    for await (const e of run.live.follow()) if (e.type === 'run-end') reason = e.reason;
    if (reason !== 'answered') throw new Error(`a run ended ${reason}`);
    return performance.now() - t0;
  }

  async function block(traced: boolean, n: number): Promise<number[]> {
    if (traced) await startTelemetry(tracing);
    const times: number[] = [];
    try {
      for (let i = 0; i < n; i++) times.push(await conversation());
    } finally {
      if (traced) {
        await flushTelemetry();
        await stopTelemetry();
      }
    }
    return times;
  }

  try {
    await block(false, WARMUP);
    await block(true, WARMUP);
    const off: number[] = [];
    const on: number[] = [];
    const ratios: number[] = [];
    for (let b = 0; b < BLOCKS; b++) {
      // Alternate which goes first, so drift on a shared machine hits both alike.
      const order = b % 2 === 0 ? [false, true] : [true, false];
      const medians: Record<string, number> = {};
      for (const traced of order) {
        const times = await block(traced, PER_BLOCK);
        (traced ? on : off).push(...times);
        medians[String(traced)] = quantile(times, 0.5);
      }
      ratios.push(medians.true! / medians.false!);
    }
    const stats = (await (await fetch(`${receiver.url}/_stats`)).json()) as { requests: number; spans: number };
    const offMs = quantile(off, 0.5);
    const onMs = quantile(on, 0.5);
    console.log(
      `telemetry-overhead: ${BLOCKS} blocks of ${PER_BLOCK} conversations each way (4 model calls + 3 tool calls, ` +
        `8 spans each), after ${WARMUP} of warm-up each; ChatService + SQLite, zero-latency scripted model over HTTP` +
        `${CAPTURE ? '; content captured' : ''}`,
    );
    console.log(machineLoad());
    console.log('                         median ms   p95 ms');
    console.log(
      `tracing off              ${offMs.toFixed(2).padStart(9)}  ${quantile(off, 0.95).toFixed(2).padStart(7)}`,
    );
    console.log(
      `traced to OTLP receiver  ${onMs.toFixed(2).padStart(9)}  ${quantile(on, 0.95).toFixed(2).padStart(7)}`,
    );
    console.log(
      `ratio of medians traced / off: ${(onMs / offMs).toFixed(3)}x; median of per-block ratios: ` +
        `${quantile(ratios, 0.5).toFixed(3)}x (blocks: ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
    );
    console.log(
      `receiver: ${stats.spans} spans in ${stats.requests} requests ` +
        `(expected ${(WARMUP + BLOCKS * PER_BLOCK) * 8} spans)`,
    );
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    model.proc.kill('SIGTERM');
    receiver.proc.kill('SIGTERM');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
