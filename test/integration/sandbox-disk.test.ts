// code_interpreter's work directory limits, with real Pyodide in real sandboxed child processes: a disk quota
// enforced while the code writes (with a clear error for the model), and the host directory's mode out of reach.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { createTool, runTool, toolSettings, type ToolSettings } from '../../tools';
import '../../tools'; // registers the builtin tools
import { codeWorkDir as workDirIn } from '../../tools/code-interpreter';

const SLOW = 180_000;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-disk-'));
const saved = { ...process.env };
/** What the tools get from the configuration (this file's environment), as a composition root makes it. */
let settings: ToolSettings;
const codeWorkDir = (conversationId: string) => workDirIn(dataDir, conversationId);

beforeAll(() => {
  Object.assign(process.env, {
    DATA_DIR: dataDir,
    CODE_INTERPRETER_BACKEND: 'pyodide', // the CPython backend's disk limit is tested in code-interpreter-python.test.ts
    CODE_INTERPRETER_TIMEOUT_MS: '30000',
    CODE_INTERPRETER_DISK_MB: '8',
  });
  settings = toolSettings(loadConfig());
});
afterAll(() => {
  settings.sandbox.shutdown();
  process.env = saved;
  rmSync(dataDir, { recursive: true, force: true });
});

/** What the model got (code that failed on a full disk gets its traceback as its result too). */
async function run(conversationId: string, code: string): Promise<string> {
  const r = await runTool(createTool('code_interpreter'), JSON.stringify({ code }), {
    files: [],
    conversationId,
    lang: 'en',
    messages: [],
    settings,
  });
  expect(typeof r.content).toBe('string');
  return r.content as string;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? bytesUnder(p) : statSync(p).size;
  }
  return total;
}

describe('code_interpreter: the work directory quota (CODE_INTERPRETER_DISK_MB=8)', () => {
  it(
    'stops a 2 GB write at the quota while it writes, tells the model why, and keeps the interpreter usable',
    async () => {
      const out = await run(
        'quota-a',
        [
          'written = 0',
          'chunk = b"x" * (1 << 20)',
          'with open("big.bin", "wb") as f:',
          '    while written < (2 << 30):',
          '        f.write(chunk)',
          '        written += len(chunk)',
        ].join('\n'),
      );
      expect(out).toMatch(/OSError: \[Errno \d+\] No space left on device/);
      expect(out).toContain(
        'The working directory is full: its files may take at most 8 MB (CODE_INTERPRETER_DISK_MB)',
      );
      expect(bytesUnder(codeWorkDir('quota-a'))).toBeLessThanOrEqual(8 * 1024 * 1024);
      // The interpreter lives on: deleting the file frees the space for the next write.
      expect(
        await run('quota-a', 'import os\nprint(written)\nos.remove("big.bin")\nopen("small.txt", "w").write("ok")'),
      ).toMatch(/stdout:\n\n```\n\d+\n```/);
      expect(readdirSync(codeWorkDir('quota-a'))).toEqual(['small.txt']);
    },
    SLOW,
  );

  it(
    'counts files already in the directory (staged uploads) and a file grown by truncate',
    async () => {
      const dir = codeWorkDir('quota-b');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'staged.bin'), Buffer.alloc(7 * 1024 * 1024));
      const out = await run('quota-b', 'open("more.bin", "wb").write(b"y" * (2 << 20))');
      expect(out).toMatch(/No space left on device/);
      const sparse = await run('quota-b', 'f = open("sparse.bin", "wb")\nf.truncate(1 << 40)');
      expect(sparse).toMatch(/No space left on device/);
      expect(statSync(path.join(dir, 'sparse.bin')).size).toBe(0);
    },
    SLOW,
  );

  it(
    'many empty files count too (a block each), so the directory cannot be filled with entries',
    async () => {
      const out = await run('quota-c', 'import os\nfor i in range(100000):\n    open(f"f{i}", "w").close()');
      expect(out).toMatch(/No space left on device/);
      expect(readdirSync(codeWorkDir('quota-c')).length).toBeLessThan(2100);
    },
    SLOW,
  );
});

describe('code_interpreter: the work directory mode', () => {
  it(
    "refuses to change the host work directory's mode, and keeps setuid bits off files inside",
    async () => {
      const dir = codeWorkDir('mode-a');
      await run('mode-a', 'open("seed.txt", "w").write("x")');
      const before = statSync(dir).mode;
      const out = await run(
        'mode-a',
        [
          'import os',
          'for target in (".", "/workspace", "../workspace"):',
          '    try:',
          '        os.chmod(target, 0o777)',
          '        print("changed", target)',
          '    except PermissionError as e:',
          '        print("refused", target, e.errno)',
          'fd = os.open(".", os.O_RDONLY)',
          'try:',
          '    os.fchmod(fd, 0o777)',
          '    print("changed fd")',
          'except PermissionError:',
          '    print("refused fd")',
          'os.chmod("seed.txt", 0o4755)',
          'print(oct(os.stat("seed.txt").st_mode & 0o7777))',
        ].join('\n'),
      );
      expect(out).toContain('refused . 63');
      expect(out).toContain('refused /workspace 63');
      expect(out).toContain('refused ../workspace 63');
      expect(out).toContain('refused fd');
      expect(out).not.toContain('changed');
      expect(statSync(dir).mode).toBe(before);
      expect(statSync(path.join(dir, 'seed.txt')).mode & 0o7777).toBe(0o755);
    },
    SLOW,
  );
});
