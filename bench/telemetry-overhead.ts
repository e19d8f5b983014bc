// bench/telemetry-overhead: what tracing costs the loop. The same conversations through the real ChatService as the
// composition root builds it (a SQLite store in a temporary directory, FnCallAgent, a zero-latency scripted model over
// HTTP in a child process: four model calls and three tool calls, so eight spans a run), in alternating blocks with
// tracing off and with every run exported to a local OTLP receiver (another child process) through the OpenTelemetry
// SDK. With a model that answers at once the loop is all CPU, so this is the worst case: against a real model the
// same cost hides behind the network wait.
// Prints, for both, the median wall ms per conversation and the CPU ms this process spent per conversation (the
// loop, the store, the span fold and the export's serialising; the model server and the receiver are other
// processes), the ratios traced / off (the CPU one is the steadier on a shared machine: other processes' load
// lengthens wall times, not this process's CPU time), and the spans the receiver got.
// Run: npm run bench:telemetry [-- --blocks 20 --per-block 25 --warmup 300 --capture]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { FnCallAgent } from '../lib/agent';
import { loadConfig } from '../lib/config';
import { createChatModel } from '../lib/llm';
import { createAppContext } from '../lib/server/context';
import { openSqliteStore } from '../lib/store';
import { flushTelemetry, startTelemetry, stopTelemetry } from '../lib/telemetry';
import { BaseTool } from '../tools';
import { machineLoad } from './support/app';
import { flag } from './support/flags';
import { quantile } from './support/stats';
import { ownerScope } from '../lib/store/owner';
import { everyToolActor } from '../lib/chat/actor';

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);

class Noop extends BaseTool {
  name = 'noop';
  description = 'Does nothing, quickly.';
  parameters = { type: 'object', properties: { step: { type: 'integer' } }, required: ['step'] };
  async call(params: string) {
    return `step ${this.parseArgs<{ step: number }>(params).step} done`;
  }
}

const BLOCKS = Number(flag('blocks', '20'));
const PER_BLOCK = Number(flag('per-block', '25'));
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
  const store = await openSqliteStore(path.join(dir, 'bench.db'));
  const tool = new Noop();
  const { chat: service } = await createAppContext(
    loadConfig({ DATA_DIR: dir, CONVERSATION_TITLES: 'message' }),
    store,
    {
      agents: () =>
        new FnCallAgent({
          llm: createChatModel({ model: 'bench', baseURL: model.url, apiKey: 'bench', fncallMode: 'native' }),
          functionList: [tool],
          name: 'assistant',
        }),
    },
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
    const run = await service.send(ACTOR, { message: 'Run the three steps, then tell me.' });
    let reason = '';
    for await (const e of (await service.runs.follow(OWNER, run.runId)) ?? [])
      if (e.type === 'run-end') reason = e.reason;
    if (reason !== 'answered') throw new Error(`a run ended ${reason}`);
    return performance.now() - t0;
  }

  /** Wall ms of each conversation, and this process's CPU ms per conversation over the block. */
  async function block(traced: boolean, n: number): Promise<{ times: number[]; cpuMs: number }> {
    if (traced) await startTelemetry(tracing);
    const times: number[] = [];
    const cpu0 = process.cpuUsage();
    try {
      for (let i = 0; i < n; i++) times.push(await conversation());
      const cpu = process.cpuUsage(cpu0);
      return { times, cpuMs: (cpu.user + cpu.system) / 1000 / n };
    } finally {
      if (traced) {
        await flushTelemetry();
        await stopTelemetry();
      }
    }
  }

  try {
    await block(false, WARMUP);
    await block(true, WARMUP);
    const wall = { off: [] as number[], on: [] as number[] };
    const cpu = { off: [] as number[], on: [] as number[] };
    for (let b = 0; b < BLOCKS; b++) {
      // Alternate which goes first, so drift on a shared machine hits both alike.
      for (const traced of b % 2 === 0 ? [false, true] : [true, false]) {
        const { times, cpuMs } = await block(traced, PER_BLOCK);
        wall[traced ? 'on' : 'off'].push(...times);
        cpu[traced ? 'on' : 'off'].push(cpuMs);
      }
    }
    const stats = (await (await fetch(`${receiver.url}/_stats`)).json()) as { requests: number; spans: number };
    const median = (xs: number[]) => quantile(xs, 0.5);
    console.log(
      `telemetry-overhead: ${BLOCKS} blocks of ${PER_BLOCK} conversations each way (4 model calls + 3 tool calls, ` +
        `8 spans each), after ${WARMUP} of warm-up each; ChatService + SQLite, zero-latency scripted model over HTTP` +
        `${CAPTURE ? '; content captured' : ''}`,
    );
    console.log(machineLoad());
    console.log('                         wall ms median    p95   CPU ms per conversation (median of blocks)');
    for (const [name, key] of [
      ['tracing off', 'off'],
      ['traced to OTLP receiver', 'on'],
    ] as const) {
      const line = [
        name.padEnd(24),
        median(wall[key]).toFixed(2).padStart(15),
        quantile(wall[key], 0.95).toFixed(2).padStart(6),
        median(cpu[key]).toFixed(2).padStart(9),
      ];
      console.log(line.join(' '));
    }
    const cpuRatio = median(cpu.on) / median(cpu.off);
    console.log(
      `traced / off: CPU ${cpuRatio.toFixed(3)}x (+${(median(cpu.on) - median(cpu.off)).toFixed(2)} ms a run), ` +
        `wall ${(median(wall.on) / median(wall.off)).toFixed(3)}x`,
    );
    console.log(
      `receiver: ${stats.spans} spans in ${stats.requests} requests ` +
        `(expected ${(WARMUP + BLOCKS * PER_BLOCK) * 8} spans)`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    model.proc.kill('SIGTERM');
    receiver.proc.kill('SIGTERM');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
