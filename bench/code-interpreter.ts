// bench/code-interpreter: the code_interpreter tool on real Pyodide, against CPython started as a subprocess in the
// same run. Prints (1) a warm call of print(1) through the tool (runTool: args, files snapshot, sandboxed process,
// formatting) vs `python3 -c "print(1)"` via execFile, alternating pair by pair (median of per-pair ratios; target
// ≤ 1.5×); (2) the cold start (new sandboxed process until the first result); (3) resident memory per interpreter.
// Run: npm run bench:code [-- --calls 60 --cold 3]
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PythonInterpreter, networkNamespaceAvailable } from '../lib/sandbox/interpreter';
import { currentSharedPool, shutdownSharedPool } from '../lib/sandbox/pool';
import { createTool, runTool } from '../tools';
import '../tools'; // registers the builtin tools

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) || fallback : fallback;
};
const CALLS = arg('calls', 60);
const COLD = arg('cold', 3);
const WARMUP = 5;

const run = promisify(execFile);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function main() {
  process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'bench-code-'));
  const opts = {
    memoryMb: 512,
    jsHeapMb: 256,
    outputChars: 20_000,
    networkNamespace: 'auto' as const,
  };
  console.log(
    `code_interpreter bench: ${CALLS} warm pairs, ${COLD} cold starts; network namespace: ${networkNamespaceAvailable() ? 'yes' : 'no'}`,
  );

  // (2) cold start: a new sandboxed process until print(1) has answered.
  const cold: number[] = [];
  const idleRss: number[] = [];
  for (let i = 0; i < COLD; i++) {
    const t0 = performance.now();
    const interp = await PythonInterpreter.start({ ...opts, workDir: path.join(process.env.DATA_DIR, `cold-${i}`) });
    await interp.run('print(1)', 60_000);
    cold.push(performance.now() - t0);
    idleRss.push(interp.rss() ?? NaN);
    interp.kill();
  }

  // (1) warm: through the tool, on the conversation's already-started interpreter.
  const tool = createTool('code_interpreter');
  const ctx = { files: [], lang: 'en' as const, messages: [], conversationId: 'bench' };
  const call = async () => {
    const r = await runTool(tool, '{"code": "print(1)"}', ctx);
    if (r.content !== 'stdout:\n\n```\n1\n```') throw new Error(`unexpected output: ${JSON.stringify(r.content)}`);
  };
  const python = async () => {
    const { stdout } = await run('python3', ['-c', 'print(1)']);
    if (stdout !== '1\n') throw new Error(`unexpected python3 output: ${stdout}`);
  };
  for (let i = 0; i < WARMUP; i++) {
    await call();
    await python();
  }
  const ours: number[] = [];
  const base: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await call();
    const t1 = performance.now();
    await python();
    const t2 = performance.now();
    ours.push(t1 - t0);
    base.push(t2 - t1);
    ratios.push((t1 - t0) / (t2 - t1));
  }

  // (3) memory of a warm interpreter, after some work.
  const warm = await currentSharedPool()?.interpreterOf(
    path.join(process.env.DATA_DIR, 'work', 'bench', 'code_interpreter'),
  );
  await runTool(tool, '{"code": "import json, re, statistics, decimal\\ndata = list(range(100000))"}', ctx);
  const busyRss = warm?.rss();

  const ratio = median(ratios);
  console.log('');
  console.log(
    `warm print(1) via code_interpreter: median ${ms(median(ours))}, p95 ${ms(p95(ours))}\n` +
      `python3 -c "print(1)" subprocess:    median ${ms(median(base))}, p95 ${ms(p95(base))}\n` +
      `ratio (median of per-pair ratios):  ${ratio.toFixed(2)}× (target ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
  );
  console.log(`cold start (new process → first result): median ${ms(median(cold))} (${cold.map(ms).join(', ')})`);
  console.log(
    `memory per interpreter (RSS): ${mb(median(idleRss))} right after start; ${busyRss ? mb(busyRss) : 'n/a'} warm after imports and a 100k list`,
  );
  shutdownSharedPool();
}

main().catch((err) => {
  console.error(err);
  shutdownSharedPool();
  process.exit(1);
});
