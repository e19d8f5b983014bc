// One CPython interpreter in the bubblewrap sandbox (bwrap.ts), running python-kernel.py: the code_interpreter
// backend chosen when the host has Python with numpy, pandas and matplotlib. Same contract as the Pyodide one
// (interpreter.ts): persistent state, the time limit kills it, the outcome says what happened.
//
// Python's /workspace is a size-limited tmpfs inside the sandbox. Before each call the host sends the work
// directory's new or changed files into it (the conversation's staged files); after each call the kernel sends
// back what the code wrote or deleted, and the host mirrors it in the work directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { launcherEnv, sandboxCommand } from './bwrap';
import { signatureOf, snapshotDir } from './files';
import { FrameError, FrameReader, writeFileFrame, writeHeader, type FrameHeader } from './frames';
import { rssOf, type CapturedStream, type RunOutcome } from './interpreter';
import { descendantsOf, killDescendants } from './process-tree';
import { drain, hostPathOf, receiveFile, removeFile } from './work-sync';
import { isErrorNamed } from '../protocol/errors';
import { coreFile } from '../config/core-files';

export interface CPythonOptions {
  workDir: string;
  /** The interpreter (e.g. /usr/bin/python3), checked by probePython. */
  python: string;
  /** Memory for the code's data; the address-space limit adds BASE_ADDRESS_SPACE_MB for Python and its libraries. */
  memoryMb: number;
  outputChars: number;
  /** Size of /workspace: the most the work directory can hold (CODE_INTERPRETER_DISK_MB). */
  diskMb: number;
}

/** Python, numpy, pandas and matplotlib mapped and imported take about 350 MB of address space. */
export const BASE_ADDRESS_SPACE_MB = 512;
export const TMP_MB = 256;
/** Processes and threads the sandbox may have at once (the kernel uses three). */
export const MAX_PROCESSES = 64;
export const MAX_OPEN_FILES = 256;
const STARTUP_TIMEOUT_MS = 30_000;
export const TIMEOUT_GRACE_MS = 2_000;
const MAX_HEADER_BYTES = 8 * 1024 * 1024;

let kernelSource: string | undefined;
function kernel(): string {
  // From the project root (or the npm package), not this module: Next bundles it elsewhere.
  kernelSource ??= readFileSync(coreFile('lib', 'sandbox', 'python-kernel.py'), 'utf8');
  return kernelSource;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
function stream(v: unknown): CapturedStream {
  const o = (typeof v === 'object' && v !== null ? v : {}) as { text?: unknown; cut?: unknown };
  return { text: str(o.text) ?? '', cut: typeof o.cut === 'number' && o.cut > 0 ? Math.floor(o.cut) : 0 };
}

interface PendingRun {
  id: number;
  /** Bytes of files received for this call so far (capped at the disk size). */
  received: number;
  /** Sizes of the work directory's files, and their total: the host's copy never holds more than the disk size. */
  hostSizes: Map<string, number>;
  hostBytes: number;
  onResult: (h: FrameHeader) => void;
  onBroken: (why: string) => void;
}

export class CPythonInterpreter {
  private exited = false;
  private stderrTail = '';
  private nextId = 0;
  private pending?: PendingRun;
  private readyWaiter?: { resolve: () => void; reject: (e: Error) => void };
  /** Host work-directory files as last sent to or received from the sandbox: name → "size:mtime". */
  private readonly synced = new Map<string, string>();
  /** The sandbox's init (PID 1 inside) and the kernel, as host pids. */
  private kernelPids = new Set<number>();
  private kernelPid?: number;
  private sweep: Promise<unknown> = Promise.resolve();
  private readonly toKernel: Writable;

  private constructor(
    private readonly child: ChildProcess,
    private readonly opts: CPythonOptions,
  ) {
    this.toKernel = child.stdio[3] as Writable;
    this.toKernel.on('error', () => undefined); // a dead kernel: the exit handler reports it
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000);
    });
    child.on('exit', () => (this.exited = true));
    // Reported on 'close', once the sandbox's last words (bwrap's errors on stderr) have been read.
    child.on('close', (code, signal) => {
      this.exited = true;
      const why = `the interpreter exited (${signal ?? `code ${code}`})`;
      this.readyWaiter?.reject(new Error(why));
      this.pending?.onBroken(why);
    });
    void this.pump(new FrameReader(child.stdio[4] as Readable, MAX_HEADER_BYTES));
  }

  /** Starts the sandbox and waits until the kernel has set its limits. */
  static async start(opts: CPythonOptions): Promise<CPythonInterpreter> {
    mkdirSync(opts.workDir, { recursive: true });
    const workDir = realpathSync(opts.workDir);
    const limits = {
      outputChars: opts.outputChars,
      diskMb: opts.diskMb,
      addressSpaceMb: opts.memoryMb + BASE_ADDRESS_SPACE_MB,
      processes: MAX_PROCESSES,
      openFiles: MAX_OPEN_FILES,
    };
    const cmd = sandboxCommand({ python: opts.python, diskMb: opts.diskMb, tmpMb: TMP_MB }, [
      '-I',
      '-B',
      '-c',
      kernel(),
      JSON.stringify(limits),
    ]);
    const child = spawn(cmd.command, cmd.args, {
      cwd: '/',
      env: launcherEnv(),
      uid: cmd.uid,
      gid: cmd.gid,
      // fd 3: frames to the kernel; fd 4: frames from it. stdout is unused (the kernel captures fds 1 and 2).
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    });
    const interpreter = new CPythonInterpreter(child, { ...opts, workDir });
    await interpreter.waitReady();
    interpreter.pause();
    return interpreter;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Resident memory of the kernel process. */
  rss(): number | undefined {
    return rssOf(this.kernelPid);
  }

  private waitReady(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new Error(`no answer within ${STARTUP_TIMEOUT_MS / 1000} s`)),
        STARTUP_TIMEOUT_MS,
      );
      const fail = (err: Error) => {
        clearTimeout(timer);
        this.readyWaiter = undefined;
        this.kill();
        const tail = this.stderrTail.trim();
        reject(new Error(`The Python sandbox did not start: ${err.message}${tail ? `\n${tail}` : ''}`));
      };
      this.child.once('error', fail);
      this.readyWaiter = {
        resolve: () => {
          clearTimeout(timer);
          this.readyWaiter = undefined;
          resolve();
        },
        reject: fail,
      };
    }).then(async () => {
      // The launcher's child is the sandbox's init (PID 1 inside), whose child is the kernel: the two that stay.
      const [init, kernel] = await descendantsOf(this.child.pid!);
      this.kernelPids = new Set([init, kernel].filter((p): p is number => p !== undefined));
      this.kernelPid = kernel;
    });
  }

  /** Reads the kernel's frames for the interpreter's whole life. Anything out of protocol kills it. */
  private async pump(reader: FrameReader): Promise<void> {
    try {
      for (;;) {
        const h = await reader.header();
        if (!h) return;
        if (h.t === 'ready' && this.readyWaiter) this.readyWaiter.resolve();
        else if (h.t === 'file' && this.pending) await this.onFile(reader, h, this.pending);
        else if (h.t === 'gone' && this.pending && typeof h.name === 'string') {
          await removeFile(this.opts.workDir, h.name);
          this.synced.delete(h.name);
        } else if (h.t === 'refused' && this.pending && typeof h.name === 'string') {
          this.synced.delete(h.name);
        } else if (h.t === 'result' && this.pending && h.id === this.pending.id) this.pending.onResult(h);
        else throw new FrameError(`unexpected frame ${JSON.stringify(h.t)}`);
      }
    } catch (err) {
      const why = isErrorNamed<FrameError>(err, 'FrameError')
        ? `it broke the protocol: ${err.message}`
        : (err as Error).message;
      this.pending?.onBroken(why);
      this.readyWaiter?.reject(new Error(why));
      this.kill();
    }
  }

  private async onFile(reader: FrameReader, h: FrameHeader, run: PendingRun): Promise<void> {
    const bytes = h.bytes;
    const limit = this.opts.diskMb * 1024 * 1024;
    if (typeof h.name !== 'string' || typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0)
      throw new FrameError('a file frame without a name or size');
    run.received += bytes;
    if (run.received > limit) throw new FrameError('it sent more bytes than the work directory can hold');
    const previous = run.hostSizes.get(h.name) ?? 0;
    const fits = run.hostBytes - previous + bytes <= limit;
    const payload = reader.payload(bytes);
    const kept = fits
      ? await receiveFile(this.opts.workDir, h.name, payload).catch((err: unknown) => {
          throw new Error(`the host could not store ${h.name}: ${(err as Error).message}`);
        })
      : await drain(payload).then(() => false);
    if (kept) {
      run.hostBytes += bytes - previous;
      run.hostSizes.set(h.name, bytes);
      const sig = (await signatureIn(this.opts.workDir, h.name)) ?? '';
      this.synced.set(h.name, sig);
    }
  }

  /** Sends the work directory's files that the sandbox does not have yet, or has in an older version. */
  private async stage(run: PendingRun): Promise<void> {
    const host = await snapshotDir(this.opts.workDir);
    for (const [name, sig] of host) {
      const size = Number(sig.split(':')[0]);
      run.hostSizes.set(name, size);
      run.hostBytes += size;
    }
    for (const [name, sig] of host) {
      if (this.synced.get(name) === sig) continue;
      const file = hostPathOf(this.opts.workDir, name);
      if (!file) continue;
      await writeFileFrame(this.toKernel, { t: 'put', name }, file);
      this.synced.set(name, sig);
    }
  }

  /**
   * Runs code in the kernel's namespace. A timeout or a crash kills the sandbox (the outcome says which); the
   * caller then starts a fresh interpreter. At the time limit the code is first interrupted (KeyboardInterrupt),
   * so that what it wrote so far is copied out, then the sandbox is killed: at once when the kernel has answered,
   * after TIMEOUT_GRACE_MS when it does not (code that ignores the interrupt, or is stuck in C).
   */
  async run(code: string, timeoutMs: number, signal?: AbortSignal): Promise<RunOutcome> {
    await this.sweep;
    if (this.exited) return { kind: 'crashed', message: 'the interpreter had exited' };
    if (signal?.aborted) {
      this.kill(); // stopped while the last run was swept: as a stop during the run would
      throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    }
    this.signalKernel('SIGCONT');
    const id = this.nextId++;
    const outcome = await new Promise<RunOutcome | Error>((resolve) => {
      let settled = false;
      const finish = (o: RunOutcome | Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(grace);
        signal?.removeEventListener('abort', onAbort);
        this.pending = undefined;
        resolve(o);
      };
      const onAbort = () => {
        this.kill();
        finish(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      let timedOut = false;
      let grace: NodeJS.Timeout | undefined;
      const timeout = () => {
        this.kill();
        finish({ kind: 'timeout', timeoutMs });
      };
      const timer = setTimeout(() => {
        timedOut = true;
        this.signalKernel('SIGINT');
        grace = setTimeout(timeout, TIMEOUT_GRACE_MS);
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      const run: PendingRun = {
        id,
        received: 0,
        hostSizes: new Map(),
        hostBytes: 0,
        onResult: (h) =>
          timedOut
            ? timeout()
            : finish({
                kind: 'done',
                stdout: stream(h.stdout),
                stderr: stream(h.stderr),
                result: str(h.result) ?? null,
                ...(str(h.error) ? { error: str(h.error), errorName: str(h.errorName) ?? 'Error' } : {}),
                ...(h.diskFull === true ? { diskFullMb: this.opts.diskMb } : {}),
              }),
        onBroken: (why) => {
          if (timedOut || /SIGXCPU|code 152\)/.test(why)) return timeout();
          this.kill();
          finish({ kind: 'crashed', message: why });
        },
      };
      this.pending = run;
      const cpu = Math.ceil((timeoutMs + TIMEOUT_GRACE_MS) / 1000) + 1;
      this.stage(run)
        .then(() => writeHeader(this.toKernel, { t: 'run', id, code, cpu }))
        .catch((err: unknown) => this.pending?.onBroken(`could not reach the interpreter: ${(err as Error).message}`));
    });
    this.pause();
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  /**
   * Between calls nothing in the sandbox runs: the kernel is stopped (with any thread the code left), and every
   * other process is killed, from outside, whatever the kernel did. The next run continues the kernel.
   */
  private pause(): void {
    if (this.exited) return;
    this.signalKernel('SIGSTOP');
    this.sweep = killDescendants(this.child.pid!, this.kernelPids).catch(() => undefined);
  }

  private signalKernel(signal: NodeJS.Signals): void {
    try {
      if (this.kernelPid) process.kill(this.kernelPid, signal);
    } catch {
      // gone: the close handler reports it
    }
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}

async function signatureIn(workDir: string, name: string): Promise<string | undefined> {
  const file = hostPathOf(workDir, name);
  const info = file ? await lstat(file).catch(() => undefined) : undefined;
  return info ? signatureOf(info) : undefined;
}
