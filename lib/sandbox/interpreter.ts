// One sandboxed Python interpreter: a Node child process running Pyodide (pyodide-child.mjs), started under Node's
// permission model and, where the host allows it, in a network namespace of its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CODE_INTERPRETER_DISK_MB_DEFAULT } from '../config';
import { coreFile, coreRequire } from '../config/core-files';
import { resolveOptional } from '../config/optional-package';

export interface SandboxOptions {
  workDir: string;
  packagesDir?: string;
  memoryMb: number;
  jsHeapMb: number;
  outputChars: number;
  networkNamespace: 'auto' | 'off';
  /** The work directory's disk quota (CODE_INTERPRETER_DISK_MB; default 1024). */
  diskMb?: number;
}

export interface CapturedStream {
  text: string;
  /** Characters produced beyond the output cap (not kept). */
  cut: number;
}

export type RunOutcome =
  | {
      kind: 'done';
      stdout: CapturedStream;
      stderr: CapturedStream;
      /** repr() of the last expression, when it was not None. */
      result: string | null;
      error?: string;
      errorName?: string;
      /** A write failed because the work directory reached its quota (in MB). */
      diskFullMb?: number;
    }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'memory'; limitMb: number }
  | { kind: 'crashed'; message: string };

const STARTUP_TIMEOUT_MS = 60_000;
const RSS_POLL_MS = 100;
/** Node, V8 and Pyodide's own code, on top of the two heaps the child is allowed. */
const BASE_RSS_MB = 192;

let resolved: { pyodideDir: string; wsDir: string; childScript: string } | undefined;
function runtimePaths() {
  if (resolved) return resolved;
  // From the project root (or the npm package), not from this module: Next bundles it elsewhere.
  const pyodideDir = path.dirname(
    resolveOptional('pyodide', 'Running Python (code_interpreter)', () =>
      coreRequire().resolve('pyodide/package.json'),
    ),
  );
  const wsDir = path.dirname(createRequire(path.join(pyodideDir, 'package.json')).resolve('ws/package.json'));
  const childScript = coreFile('lib', 'sandbox', 'pyodide-child.mjs');
  resolved = {
    pyodideDir: realpathSync(pyodideDir),
    wsDir: realpathSync(wsDir),
    childScript: realpathSync(childScript),
  };
  return resolved;
}

let unshareWorks: boolean | undefined;
/** Can this host give a process its own (empty) network namespace without privileges? */
export function networkNamespaceAvailable(): boolean {
  unshareWorks ??= spawnSync('unshare', ['-rn', 'true'], { stdio: 'ignore', timeout: 5_000 }).status === 0;
  return unshareWorks;
}

function permissionFlag(): string {
  return Number(process.versions.node.split('.')[0]) >= 23 ? '--permission' : '--experimental-permission';
}

/** Resident memory of a process, in bytes (Linux); undefined when it cannot be read. */
export function rssOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

type ChildMessage =
  | { type: 'ready' }
  | ({ type: 'result'; id: number; diskFull?: { limitBytes: number } } & Omit<
      Extract<RunOutcome, { kind: 'done' }>,
      'kind' | 'diskFullMb'
    >);

export class PythonInterpreter {
  private nextId = 0;
  private exited = false;
  private stderrTail = '';
  readonly isolatedNetwork: boolean;

  private constructor(
    private readonly child: ChildProcess,
    private readonly opts: SandboxOptions,
    isolatedNetwork: boolean,
  ) {
    this.isolatedNetwork = isolatedNetwork;
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000);
    });
    child.on('exit', () => (this.exited = true));
  }

  /** Starts a process and waits until Python is loaded and the sandbox is in place. */
  static async start(opts: SandboxOptions): Promise<PythonInterpreter> {
    const { pyodideDir, wsDir, childScript } = runtimePaths();
    mkdirSync(opts.workDir, { recursive: true });
    const workDir = realpathSync(opts.workDir);
    const packagesDir = opts.packagesDir ? realpathSync(opts.packagesDir) : '';
    const readable = [pyodideDir, wsDir, childScript, workDir, ...(packagesDir ? [packagesDir] : [])];
    const nodeArgs = [
      permissionFlag(),
      ...readable.map((p) => `--allow-fs-read=${p}`),
      `--allow-fs-write=${workDir}`,
      '--disallow-code-generation-from-strings',
      `--max-old-space-size=${opts.jsHeapMb}`,
      '--no-warnings',
      childScript,
      pyodideDir,
      workDir,
      packagesDir,
    ];
    const isolated = opts.networkNamespace === 'auto' && networkNamespaceAvailable();
    const [command, args] = isolated
      ? ['unshare', ['-rn', process.execPath, ...nodeArgs]]
      : [process.execPath, nodeArgs];
    const child = spawn(command, args, {
      cwd: workDir,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Nothing of the server's environment (API keys) reaches the sandbox.
      env: {
        PATH: process.env.PATH ?? '',
        SANDBOX_HEAP_BYTES: String(opts.memoryMb * 1024 * 1024),
        SANDBOX_OUTPUT_CHARS: String(opts.outputChars),
        SANDBOX_DISK_BYTES: String((opts.diskMb ?? CODE_INTERPRETER_DISK_MB_DEFAULT) * 1024 * 1024),
      } as unknown as NodeJS.ProcessEnv,
    });
    const interpreter = new PythonInterpreter(child, opts, isolated);
    await interpreter.waitReady();
    return interpreter;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  rss(): number | undefined {
    return rssOf(this.child.pid);
  }

  private waitReady(): Promise<void> {
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        cleanup();
        this.kill();
        reject(new Error(`The Python sandbox did not start: ${why}${this.stderrTail ? `\n${this.stderrTail}` : ''}`));
      };
      const onMessage = (m: ChildMessage) => {
        if (m?.type !== 'ready') return;
        cleanup();
        resolve();
      };
      const onExit = (code: number | null, signal: string | null) => fail(`it exited (${signal ?? code})`);
      const onError = (err: Error) => fail(err.message);
      const timer = setTimeout(() => fail(`no answer within ${STARTUP_TIMEOUT_MS / 1000} s`), STARTUP_TIMEOUT_MS);
      const cleanup = () => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        this.child.off('error', onError);
      };
      this.child.on('message', onMessage);
      this.child.on('exit', onExit);
      this.child.on('error', onError);
    });
  }

  /**
   * Runs code in the interpreter's global namespace. A timeout, a memory overrun or a crash kills the process
   * (the outcome says which); the caller then starts a fresh interpreter.
   */
  run(code: string, timeoutMs: number, signal?: AbortSignal): Promise<RunOutcome> {
    if (this.exited) return Promise.resolve({ kind: 'crashed', message: 'the interpreter had exited' });
    if (signal?.aborted) {
      this.kill(); // as a stop during the run would: the caller counts on it
      return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    }
    const id = this.nextId++;
    const limitMb = this.opts.memoryMb + this.opts.jsHeapMb + BASE_RSS_MB;
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (outcome: RunOutcome | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watch);
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const onMessage = (m: ChildMessage) => {
        if (m?.type !== 'result' || m.id !== id) return;
        const { stdout, stderr, result, error, errorName, diskFull } = m;
        finish({
          kind: 'done',
          stdout,
          stderr,
          result,
          ...(error ? { error, errorName } : {}),
          ...(diskFull ? { diskFullMb: Math.round(diskFull.limitBytes / 1024 / 1024) } : {}),
        });
      };
      const onExit = (code: number | null, sig: string | null) => {
        // V8 aborts with "heap out of memory" when the JS heap cap is hit.
        if (/out of memory|Allocation failed/i.test(this.stderrTail)) finish({ kind: 'memory', limitMb });
        else finish({ kind: 'crashed', message: `the interpreter exited (${sig ?? `code ${code}`})` });
      };
      const onAbort = () => {
        this.kill();
        finish(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const timer = setTimeout(() => {
        this.kill();
        finish({ kind: 'timeout', timeoutMs });
      }, timeoutMs);
      // A backstop for memory the wasm heap cap does not see (JS-side buffers): watch the process from outside.
      const watch = setInterval(() => {
        const rss = this.rss();
        if (rss !== undefined && rss > limitMb * 1024 * 1024) {
          this.kill();
          finish({ kind: 'memory', limitMb });
        }
      }, RSS_POLL_MS);
      this.child.on('message', onMessage);
      this.child.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.child.send({ type: 'run', id, code }, (err) => {
        if (err) finish({ kind: 'crashed', message: `could not reach the interpreter: ${err.message}` });
      });
    });
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
