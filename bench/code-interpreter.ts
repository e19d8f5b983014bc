// bench/code-interpreter: the code_interpreter tool on each backend (CPython in bubblewrap, Pyodide), against
// CPython started as a plain subprocess in the same run. Per backend: (1) the first call of a conversation (cold
// start: a new sandbox until the first result, through the tool); (2) a warm call through the tool (runTool: args,
// staging, the sandbox, formatting) vs `python3 -c` of the same code via execFile, alternating pair by pair (median
// of per-pair ratios; target ≤ 1.5×): print(1) on both, and a pandas sum on CPython; (3) resident memory per
// interpreter. The subprocess is the backend's interpreter (CODE_INTERPRETER_PYTHON, default /usr/bin/python3).
// Run: npm run bench:code [-- --calls 60 --cold 3 --backend both|python|pyodide]
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../lib/config';
import { probePython } from '../lib/sandbox/bwrap';
import { createTool, runTool, toolSettings, type ToolSettings } from '../tools';
import '../tools'; // registers the builtin tools
import { codeWorkDir } from '../tools/code-interpreter';
import { flag } from './support/flags';
import { quantile } from './support/stats';

const CALLS = Number(flag('calls', '60')) || 60;
const COLD = Number(flag('cold', '3')) || 3;
const WHICH = flag('backend', 'both');
const WARMUP = 5;

const run = promisify(execFile);
const median = (xs: number[]) => quantile(xs, 0.5);
const p95 = (xs: number[]) => quantile(xs, 0.95);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mb = (bytes: number | undefined) => (bytes ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : 'n/a');

const PANDAS = "import pandas as pd\nprint(int(pd.DataFrame({'a': range(100_000)})['a'].sum()))";
const PANDAS_OUT = '4999950000\n';

let conversation = 0;
/** The backend's settings (its sandbox and pool), made from the environment when its bench starts. */
let settings: ToolSettings | undefined;
const ctxFor = (id: string) => ({ files: [], lang: 'en' as const, messages: [], conversationId: id, settings });
const workDir = (id: string) => codeWorkDir(settings!.dataDir, id);

async function toolCall(id: string, code: string, expected: string): Promise<void> {
  const r = await runTool(createTool('code_interpreter'), JSON.stringify({ code }), ctxFor(id));
  const want = `stdout:\n\n\`\`\`\n${expected.replace(/\n$/, '')}\n\`\`\``;
  if (r.content !== want) throw new Error(`unexpected output: ${JSON.stringify(r.content)}`);
}

async function subprocess(python: string, code: string, expected: string): Promise<void> {
  const { stdout } = await run(python, ['-c', code]);
  if (stdout !== expected) throw new Error(`unexpected ${python} output: ${stdout}`);
}

/** Warm calls through the tool against the subprocess, pair by pair. */
async function warm(backend: string, python: string, label: string, code: string, expected: string) {
  const id = `bench-${backend}-warm-${label}`;
  for (let i = 0; i < WARMUP; i++) {
    await toolCall(id, code, expected);
    await subprocess(python, code, expected);
  }
  const ours: number[] = [];
  const base: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await toolCall(id, code, expected);
    const t1 = performance.now();
    await subprocess(python, code, expected);
    const t2 = performance.now();
    ours.push(t1 - t0);
    base.push(t2 - t1);
    ratios.push((t1 - t0) / (t2 - t1));
  }
  const ratio = median(ratios);
  console.log(
    `  warm ${label} via code_interpreter: median ${ms(median(ours))}, p95 ${ms(p95(ours))}\n` +
      `  ${python} -c (${label}) subprocess: median ${ms(median(base))}, p95 ${ms(p95(base))}\n` +
      `  ratio (median of per-pair ratios): ${ratio.toFixed(2)}× (target ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
  );
  return id;
}

async function bench(backend: 'python' | 'pyodide', python: string): Promise<void> {
  settings?.sandbox.shutdown();
  process.env.CODE_INTERPRETER_BACKEND = backend;
  settings = toolSettings(loadConfig());
  console.log(`\nbackend ${backend}:`);

  // (1) cold start: a new conversation's first call, through the tool (a new sandbox, then print(1)).
  const cold: number[] = [];
  for (let i = 0; i < COLD; i++) {
    const id = `bench-${backend}-cold-${conversation++}`;
    const t0 = performance.now();
    await toolCall(id, 'print(1)', '1\n');
    cold.push(performance.now() - t0);
    settings.sandbox.currentPool?.reset(workDir(id));
  }
  console.log(`  cold start (first call of a conversation): median ${ms(median(cold))} (${cold.map(ms).join(', ')})`);

  // (2) warm calls.
  const id = await warm(backend, python, 'print(1)', 'print(1)', '1\n');
  const idle = (await settings.sandbox.currentPool?.interpreterOf(workDir(id)))?.rss();
  if (backend === 'python') {
    const pandasId = await warm(backend, python, 'pandas sum', PANDAS, PANDAS_OUT);
    const busy = (await settings.sandbox.currentPool?.interpreterOf(workDir(pandasId)))?.rss();
    console.log(`  memory per interpreter (RSS): ${mb(idle)} after print(1); ${mb(busy)} with pandas imported`);
  } else console.log(`  memory per interpreter (RSS): ${mb(idle)} after print(1)`);
}

async function main() {
  process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'bench-code-'));
  const python = loadConfig().codeInterpreter.python;
  const probe = probePython(python);
  const backends = (WHICH === 'both' ? ['python', 'pyodide'] : [WHICH]) as ('python' | 'pyodide')[];
  console.log(
    `code_interpreter bench: ${CALLS} warm pairs, ${COLD} cold starts; subprocess baseline ${python}; ` +
      `CPython backend ${probe.ok ? 'available' : `unavailable (${probe.reason})`}`,
  );
  for (const backend of backends) {
    if (backend === 'python' && !probe.ok) {
      console.log('\nbackend python: skipped (not available here)');
      continue;
    }
    await bench(backend, python);
  }
  settings?.sandbox.shutdown();
}

main().catch((err) => {
  console.error(err);
  settings?.sandbox.shutdown();
  process.exit(1);
});
