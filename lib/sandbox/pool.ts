// Warm interpreters, one per key (a conversation's work directory): calls on one key run one after another, so
// variables and imports persist as in a notebook kernel. Bounded in number, reaped when idle.
import type { Interpreter } from './backend';
import { PythonInterpreter, type RunOutcome, type SandboxOptions } from './interpreter';

export interface PoolOptions extends Omit<SandboxOptions, 'workDir'> {
  maxInterpreters: number;
  idleMs: number;
  /** Starts an interpreter for a work directory; default: Pyodide with these options. */
  startInterpreter?: (workDir: string) => Promise<Interpreter>;
}

export interface PoolRun {
  workDir: string;
  code: string;
  timeoutMs: number;
  /** Start from a fresh interpreter (variables and imports forgotten; files stay). */
  reset?: boolean;
  signal?: AbortSignal;
  /** Called when the code is handed to the interpreter: from then on an abort kills it (its variables are lost). */
  onRunning?: () => void;
}

export class PoolFullError extends Error {
  override name = 'PoolFullError';
}

interface Entry {
  interpreter?: Promise<Interpreter>;
  busy: number;
  lastUsed: number;
  queue: Promise<unknown>;
}

export class InterpreterPool {
  private readonly entries = new Map<string, Entry>();
  private readonly reaper: NodeJS.Timeout;

  constructor(readonly opts: PoolOptions) {
    this.reaper = setInterval(() => this.reapIdle(), Math.max(1_000, Math.min(opts.idleMs / 2, 60_000)));
    this.reaper.unref();
  }

  /** Runs code on the key's interpreter (started if needed), after the calls already queued on that key. */
  run(key: string, req: PoolRun): Promise<RunOutcome & { started: boolean }> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { busy: 0, lastUsed: Date.now(), queue: Promise.resolve() };
      this.entries.set(key, entry);
    }
    const e = entry;
    e.busy++;
    const job = e.queue.then(async () => {
      req.signal?.throwIfAborted();
      if (req.reset) this.discard(e);
      let started = false;
      if (!e.interpreter || !(await e.interpreter.catch(() => undefined))?.alive) {
        this.makeRoom(key);
        e.interpreter = this.opts.startInterpreter
          ? this.opts.startInterpreter(req.workDir)
          : PythonInterpreter.start({ ...this.opts, workDir: req.workDir });
        started = true;
      }
      const interpreter = await e.interpreter.catch((err: unknown) => {
        e.interpreter = undefined;
        throw err;
      });
      req.signal?.throwIfAborted();
      req.onRunning?.();
      const outcome = await interpreter.run(req.code, req.timeoutMs, req.signal).catch((err: unknown) => {
        this.discard(e); // stopped: the interpreter was killed
        throw err;
      });
      if (outcome.kind !== 'done') this.discard(e);
      return { ...outcome, started };
    });
    e.queue = job.catch(() => undefined);
    return job.finally(() => {
      e.busy--;
      e.lastUsed = Date.now();
    });
  }

  /** Forgets a key's interpreter (the next call starts a fresh one). */
  reset(key: string): void {
    const e = this.entries.get(key);
    if (e) this.discard(e);
  }

  /** Stops a key's interpreter and forgets the key (a one-off run's key, never used again). */
  drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.discard(e);
    if (e.busy === 0) this.entries.delete(key);
  }

  /** Keys with a live (or starting) interpreter. */
  get size(): number {
    return [...this.entries.values()].filter((e) => e.interpreter).length;
  }

  /** The interpreter of a key, once started (for measurements). */
  async interpreterOf(key: string): Promise<Interpreter | undefined> {
    return this.entries.get(key)?.interpreter?.catch(() => undefined);
  }

  reapIdle(now = Date.now()): void {
    for (const [key, e] of this.entries) {
      if (e.busy === 0 && now - e.lastUsed >= this.opts.idleMs) {
        this.discard(e);
        this.entries.delete(key);
      }
    }
  }

  shutdown(): void {
    clearInterval(this.reaper);
    for (const e of this.entries.values()) this.discard(e);
    this.entries.clear();
  }

  private discard(e: Entry): void {
    const pending = e.interpreter;
    e.interpreter = undefined;
    void pending?.then((i) => i.kill()).catch(() => undefined);
  }

  /** Evicts the least recently used idle interpreter when the pool is full; refuses when all are busy. */
  private makeRoom(forKey: string): void {
    const live = [...this.entries].filter(([k, e]) => k !== forKey && e.interpreter);
    if (live.length < this.opts.maxInterpreters) return;
    const idle = live.filter(([, e]) => e.busy === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    const victim = idle[0];
    if (!victim)
      throw new PoolFullError(
        `All ${this.opts.maxInterpreters} Python interpreters are busy with other conversations; try again when one finishes.`,
      );
    this.discard(victim[1]);
    this.entries.delete(victim[0]);
  }
}
