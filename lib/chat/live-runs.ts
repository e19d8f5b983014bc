// The runs in progress: started by the chat service, which hands each event of a run to its writer; the writer
// appends it to the run's log and only then to the run's followers (what a reader sees is never more than what a
// restart keeps). Any number of readers follow a run from its first event (a reload re-attaches to a run still
// going); a run can be stopped and told the user's decision on a paused tool call. The registry here holds the
// runs in this process's memory; shared-live-runs.ts adds the runs other instances drive on the same database
// (PostgreSQL), behind the same interface. A run is its owner's: following, stopping or deciding for it takes the
// owner's scope, and another owner's run reads as not in progress.
import { EventQueue } from '../agent/event-queue';
import type { ByteBudget } from '../http/rate-limit';
import type { AgentEvent, ToolDecision } from '../protocol/events';
import { isPassingStoreFailure, runStoreFailure } from '../store/errors';
import type { OwnerScope } from '../store/owner';
import type { ChatStore } from '../store/types';
import { traceRunEvent } from '../telemetry';
import { leavable } from './leavable';
import { storageSpentError } from './run-storage';

export interface FollowOptions {
  /** Merge consecutive deltas that arrive within this window into one event (fewer, larger messages). */
  coalesceMs?: number;
  /** Called when the reader stops before the run ended (a closed page). */
  onLeave?: () => void;
}

/** What the chat service writes a run through while it drives it. */
export interface RunWriter {
  /** Aborts when the run is stopped. */
  readonly signal: AbortSignal;
  /** Appends an event to the run's log, then hands it to the run's followers. Events that come while a write is in
   *  flight go together in the next one (one transaction for a burst of deltas). */
  push(event: AgentEvent): void;
  /** Set once the log could not be written (later events are dropped): the run should stop. */
  readonly failed: boolean;
  /** The run is over: resolves once everything pushed is stored and its followers are done. If the log could not be
   *  written, the followers are told the run ended in an error, and the run is marked so when the store allows. */
  end(): Promise<void>;
  /** Waits for the user's decision on a paused tool call; rejects when the run is stopped meanwhile. */
  awaitDecision(functionId: string): Promise<ToolDecision>;
}

export type DecideResult = 'decided' | 'not-running' | 'not-waiting';

export interface LiveRuns {
  /** A run of `owner`'s starting now (on this instance); its driver writes through the returned writer. */
  start(owner: OwnerScope, runId: string, conversationId: string): RunWriter;
  /** Every event of a run in progress from its first on, as they come, ending after run-end; undefined when the
   *  run is not in progress (or not the owner's). */
  follow(owner: OwnerScope, runId: string, opts?: FollowOptions): Promise<AsyncGenerator<AgentEvent> | undefined>;
  /** Stops a run in progress; false when it is not (or not the owner's). With `unlessFollowedWithinMs`, the run is
   *  stopped only once that long has passed with no reader following it here (a page reloaded follows its run
   *  again, and the run goes on); a run another instance drives is then left alone. */
  stop(owner: OwnerScope, runId: string, opts?: { unlessFollowedWithinMs?: number }): Promise<boolean>;
  /** Hands the user's decision to the tool call a run waits on. */
  decide(owner: OwnerScope, runId: string, functionId: string, decision: ToolDecision): Promise<DecideResult>;
  /** Stops every run of the owner's conversation and resolves once each has ended and stored its last event. */
  stopConversation(owner: OwnerScope, conversationId: string): Promise<void>;
  /** The runs of the owner's conversation in progress (on any instance sharing the database). */
  runningIn(owner: OwnerScope, conversationId: string): Promise<string[]>;
  /** Before another run of the owner's conversation starts: a run of it that ended here without its end stored (a
   *  store fault) is closed now if the store takes writes again, instead of at its next try, which may be seconds
   *  away. (With a shared database the lease sweep closes such runs, and a start sees a lapsed lease as closed.) */
  closeUnsettled(owner: OwnerScope, conversationId: string): Promise<void>;
  /** Resolves once the run has ended and stored its last event (at once when it is not in progress). Unscoped: it
   *  tells nothing but when, and the run limits wait on it. */
  ended(runId: string): Promise<void>;
  /** This instance is shutting down (SIGTERM): every run it drives keeps what it stored, is marked interrupted at
   *  once (not when its lease runs out) and is stopped; resolves with how many once each has ended. */
  interruptAll(): Promise<number>;
}

/** Told when a run of this process starts and once it has ended (the shared registry holds its lease meanwhile). */
export interface LiveRunHooks {
  started?(runId: string): void;
  ended?(runId: string): void;
  /** Something else closes a run left `running` once the database answers again (the shared registry: the lease
   *  sweep marks it interrupted). Unset, a run whose log could not be written is closed here, as soon as the store
   *  takes writes again (see LiveRun.settle). */
  sweptByLease?: boolean;
  /** Each owner's allowance of stored run events (RUN_BYTES_PER_DAY): a run that takes its owner past it is
   *  stopped, and its run-end says why (run-storage.ts). */
  storage?: ByteBudget;
}

/** The pauses between attempts to close a run whose log could not be written (the last one repeats). */
const SETTLE_PAUSES_MS = [250, 1000, 2000, 5000, 10_000];

/** The runs in progress in this process, written to `store`. */
export class InMemoryLiveRuns implements LiveRuns {
  private readonly runs = new Map<string, LiveRun>();
  /** Runs that ended here whose end is not stored yet (see LiveRun.settle). */
  private readonly unsettled = new Set<LiveRun>();

  constructor(
    private readonly store: ChatStore,
    private readonly hooks: LiveRunHooks = {},
  ) {}

  start(owner: OwnerScope, runId: string, conversationId: string): RunWriter {
    const settles = this.hooks.sweptByLease ? undefined : this.unsettled;
    const run = new LiveRun(this.store, owner, runId, conversationId, settles, this.hooks.storage, () => {
      this.runs.delete(runId);
      this.hooks.ended?.(runId);
    });
    this.runs.set(runId, run);
    this.hooks.started?.(runId);
    return run;
  }

  /** Is the run in progress in this process? */
  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  /** The run if it is in progress and the owner's. */
  private owned(owner: OwnerScope, runId: string): LiveRun | undefined {
    const run = this.runs.get(runId);
    return run && run.owner.ownerId === owner.ownerId ? run : undefined;
  }

  async follow(
    owner: OwnerScope,
    runId: string,
    opts: FollowOptions = {},
  ): Promise<AsyncGenerator<AgentEvent> | undefined> {
    return this.owned(owner, runId)?.follow(opts);
  }

  async stop(owner: OwnerScope, runId: string, opts: { unlessFollowedWithinMs?: number } = {}): Promise<boolean> {
    const run = this.owned(owner, runId);
    if (opts.unlessFollowedWithinMs !== undefined) run?.stopUnlessFollowed(opts.unlessFollowedWithinMs);
    else run?.controller.abort();
    return Boolean(run);
  }

  /** stop() for another instance of this app, which checked the run is its caller's (the store's owned lookup)
   *  before it sent the stop here: false when the run is not in this process. */
  stopHere(runId: string): boolean {
    const run = this.runs.get(runId);
    run?.controller.abort();
    return Boolean(run);
  }

  async decide(owner: OwnerScope, runId: string, functionId: string, decision: ToolDecision): Promise<DecideResult> {
    const run = this.owned(owner, runId);
    if (!run) return 'not-running';
    return run.decide(functionId, decision) ? 'decided' : 'not-waiting';
  }

  /** decide() for another instance, which checked ownership first (as stopHere). */
  decideHere(runId: string, functionId: string, decision: ToolDecision): DecideResult {
    const run = this.runs.get(runId);
    if (!run) return 'not-running';
    return run.decide(functionId, decision) ? 'decided' : 'not-waiting';
  }

  ended(runId: string): Promise<void> {
    return this.runs.get(runId)?.ended ?? Promise.resolve();
  }

  async stopConversation(owner: OwnerScope, conversationId: string): Promise<void> {
    const runs = this.of(owner, conversationId);
    for (const run of runs) run.controller.abort();
    await Promise.all(runs.map((run) => run.ended));
  }

  async runningIn(owner: OwnerScope, conversationId: string): Promise<string[]> {
    return this.of(owner, conversationId)
      .filter((run) => !run.finished)
      .map((run) => run.runId);
  }

  async closeUnsettled(owner: OwnerScope, conversationId: string): Promise<void> {
    const mine = (run: LiveRun) => run.conversationId === conversationId && run.owner.ownerId === owner.ownerId;
    await Promise.all([...this.unsettled].filter(mine).map((run) => run.settleNow()));
  }

  private of(owner: OwnerScope, conversationId: string): LiveRun[] {
    return [...this.runs.values()].filter(
      (run) => run.conversationId === conversationId && run.owner.ownerId === owner.ownerId,
    );
  }

  async interruptAll(): Promise<number> {
    const runs = [...this.runs.values()];
    await Promise.all(runs.map((run) => run.interrupt()));
    return runs.length;
  }
}

class LiveRun implements RunWriter {
  readonly controller = new AbortController();
  readonly ended: Promise<void>;
  /** What the followers read: events already stored. */
  private readonly events = new EventQueue<AgentEvent>();
  /** Tool calls paused for the user's decision, by function id. */
  private readonly decisions = new Map<string, (decision: ToolDecision) => void>();
  private resolveEnded!: () => void;
  /** Events pushed and not written yet, and the write in flight. */
  private pending: AgentEvent[] = [];
  private writing?: Promise<void>;
  private writeError?: unknown;
  /** Set by interrupt(): what the run pushes after it is dropped. */
  private interrupted = false;
  /** Readers following the run now (one that left is no longer counted). */
  private followers = 0;
  /** Its run-end is stored and the run reads as finished (its readers are being told). */
  finished = false;
  /** The end its readers were told while its log could not be written, until it is stored (see settle). */
  private unstored?: { end: AgentEvent & { type: 'run-end' }; cause: unknown; appended: boolean };
  /** The attempt in flight to store it. */
  private settling?: Promise<void>;
  /** Stopped because its owner's runs stored their allowance (RUN_BYTES_PER_DAY). */
  private overStorage = false;

  constructor(
    private readonly store: ChatStore,
    readonly owner: OwnerScope,
    readonly runId: string,
    readonly conversationId: string,
    /** Where the run waits to be closed here once the store takes writes again, if its log failed; unset when
     *  something else closes it (LiveRunHooks.sweptByLease). */
    private readonly unsettled: Set<LiveRun> | undefined,
    private readonly storage: ByteBudget | undefined,
    private readonly onEnd: () => void,
  ) {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get failed(): boolean {
    return this.writeError !== undefined;
  }

  push(event: AgentEvent): void {
    if (this.failed || this.interrupted) return;
    // Stopped for its owner's allowance: it ends with that reason, not as stopped by the user.
    if (this.overStorage && event.type === 'run-end' && event.reason === 'aborted')
      event = { ...event, reason: 'error', error: storageSpentError(this.storage!) };
    this.pending.push(event);
    this.writing ??= this.write();
  }

  async end(): Promise<void> {
    await this.writing;
    if (this.failed) {
      // The store failed (disk full, database locked or gone): the run cannot be recorded; say so to the readers.
      const e = this.writeError;
      const error = { name: 'StoreError', message: runStoreFailure(e) };
      const end: AgentEvent = {
        type: 'run-end',
        runId: this.runId,
        iteration: 0,
        t: 0,
        reason: 'error',
        error,
        llmCalls: 0,
        toolCalls: 0,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 0,
      };
      this.share(end);
      if (this.unsettled) void this.settle(end, e);
      else
        await this.store.finishRun(this.owner, this.runId, 'error', error).catch(() => {
          // the lease sweep marks it interrupted once the database answers
        });
    }
    this.events.close();
    this.onEnd();
    this.resolveEnded();
  }

  /**
   * Stores the end its readers were told (`end`, after what was stored before the failure) and closes the run with
   * its error, as soon as the store takes writes again: a full disk freed, another program's lock let go. Until
   * then the run reads `running` (a reload shows what was kept). Tried again after each pause while the store
   * refuses for such a passing reason; a process stopped meanwhile leaves the run to the next start, which marks it
   * interrupted.
   */
  private async settle(end: AgentEvent & { type: 'run-end' }, cause: unknown): Promise<void> {
    this.unstored = { end, cause, appended: false };
    this.unsettled!.add(this);
    try {
      for (let attempt = 0; this.unstored && isPassingStoreFailure(this.unstored.cause); attempt++) {
        await new Promise((resolve) =>
          setTimeout(resolve, SETTLE_PAUSES_MS[Math.min(attempt, SETTLE_PAUSES_MS.length - 1)]).unref(),
        );
        await this.settleNow();
      }
    } finally {
      this.unsettled!.delete(this);
    }
  }

  /** One attempt to store the end and close the run (one at a time: the end is appended once). */
  settleNow(): Promise<void> {
    return (this.settling ??= this.storeEnd().finally(() => (this.settling = undefined)));
  }

  private async storeEnd(): Promise<void> {
    const unstored = this.unstored;
    if (!unstored) return;
    try {
      if ((await this.store.getRun(this.owner, this.runId))?.status === 'running') {
        if (!unstored.appended) await this.store.appendEvents(this.owner, this.runId, [unstored.end]);
        unstored.appended = true;
        await this.store.finishRun(this.owner, this.runId, 'error', unstored.end.error);
      } // else closed meanwhile
      this.unstored = undefined;
    } catch (e) {
      unstored.cause = e;
    }
  }

  /** The process is going away: store what was pushed, mark the run interrupted (as a killed process's run reads
   *  later, but now), then stop it; resolves once its driver has ended it. */
  async interrupt(): Promise<void> {
    this.interrupted = true;
    await this.writing;
    if (!this.failed)
      await this.store.finishRun(this.owner, this.runId, 'interrupted').catch(() => {
        // it ended meanwhile (its run-end was in the last write), or the store is gone: nothing to mark
      });
    this.controller.abort();
    await this.ended;
  }

  private async write(): Promise<void> {
    try {
      // Written in the next turn of the event loop, not inside the push: the events pushed as a model call starts
      // (the run's input, the call's whole request) were stored while the SDK was still preparing that request,
      // so the request waited for them (about 2 ms after 40 long turns).
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.pending.length) {
        const batch = this.pending;
        this.pending = [];
        this.spend(await this.store.appendEvents(this.owner, this.runId, batch));
        const end = batch.find((e) => e.type === 'run-end');
        // The run reads as finished before its followers hear that it ended.
        if (end?.type === 'run-end') {
          await this.store.finishRun(this.owner, this.runId, end.reason, end.error);
          this.finished = true;
        }
        for (const e of batch) this.share(e);
      }
    } catch (e) {
      this.writeError = e;
      this.pending = [];
    } finally {
      this.writing = undefined;
    }
  }

  /** Counts what was stored against the owner's allowance; the run is stopped once it is spent. */
  private spend(bytes: number): void {
    if (!this.storage || this.overStorage) return;
    if (this.storage.spend(this.owner.ownerId, bytes) > 0) return;
    this.overStorage = true;
    this.controller.abort();
  }

  /** A stored event (or the end of a run whose log failed) goes to the run's trace and its followers. */
  private share(event: AgentEvent): void {
    traceRunEvent(event, this.conversationId);
    this.events.push(event);
  }

  awaitDecision(functionId: string): Promise<ToolDecision> {
    const signal = this.controller.signal;
    return new Promise<ToolDecision>((resolve, reject) => {
      const onAbort = () => {
        this.decisions.delete(functionId);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.decisions.set(functionId, (decision) => {
        signal.removeEventListener('abort', onAbort);
        this.decisions.delete(functionId);
        resolve(decision);
      });
    });
  }

  decide(functionId: string, decision: ToolDecision): boolean {
    const resolve = this.decisions.get(functionId);
    if (!resolve) return false;
    resolve(decision);
    return true;
  }

  follow(opts: FollowOptions): AsyncGenerator<AgentEvent> {
    this.followers++;
    return followQueue(this.events, {
      ...opts,
      onLeave: () => {
        this.followers--;
        opts.onLeave?.();
      },
    });
  }

  /** Stops the run `graceMs` from now unless a reader follows it by then. */
  stopUnlessFollowed(graceMs: number): void {
    const timer = setTimeout(() => {
      if (this.followers === 0) this.controller.abort();
    }, graceMs);
    timer.unref?.();
    void this.ended.then(() => clearTimeout(timer));
  }
}

/** Every event of `events` from the first, as they come, until it is closed; the reader may merge deltas. Leaving
 *  (return() or throw()) takes effect at once, however long the run stays quiet (leavable.ts). */
export function followQueue(events: EventQueue<AgentEvent>, opts: FollowOptions): AsyncGenerator<AgentEvent> {
  const left = new AbortController();
  return leavable(readQueue(events, opts.coalesceMs, left.signal), () => {
    left.abort();
    if (!events.isClosed) opts.onLeave?.();
  });
}

async function* readQueue(
  events: EventQueue<AgentEvent>,
  coalesceMs: number | undefined,
  left: AbortSignal,
): AsyncGenerator<AgentEvent> {
  // Merging waits only inside a burst: what comes after a quiet spell (the first token) goes at once, and later
  // events wait out what is left of the interval since the last send, so a reader gets at most one send per interval.
  let next = 0;
  let lastSend = -Infinity;
  // The wait for the next event ends when the reader leaves, too.
  let wake: (() => void) | undefined;
  left.addEventListener('abort', () => wake?.(), { once: true });
  while (!left.aborted) {
    if (next < events.size) {
      const wait = coalesceMs ? lastSend + coalesceMs - performance.now() : 0;
      if (wait > 0 && !events.isClosed) await delay(wait);
      lastSend = performance.now();
      const batch = events.since(next);
      next += batch.length;
      for (const e of coalesceMs ? coalesceDeltas(batch) : batch) yield e;
      continue;
    }
    if (events.isClosed) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
      void events.whenPast(next).then(resolve);
    });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Consecutive text or reasoning deltas of the same iteration (and ReAct part) become one event, with the later
 *  clock, unless the later one starts a message of its own; so do a child run's, inside their wrappers. */
export function coalesceDeltas(events: readonly AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    const merged = last && merge(last, e);
    if (merged) out[out.length - 1] = merged;
    else out.push(e);
  }
  return out;
}

function merge(last: AgentEvent, e: AgentEvent): AgentEvent | undefined {
  if (e.type === 'child') {
    if (last.type !== 'child' || last.event.runId !== e.event.runId) return undefined;
    const inner = merge(last.event, e.event);
    return inner && { ...last, t: e.t, event: inner };
  }
  if (
    (e.type === 'text-delta' || e.type === 'reasoning-delta') &&
    !(e.type === 'text-delta' && e.newMessage) && // it starts a message of its own
    last.type === e.type &&
    last.iteration === e.iteration &&
    (e.type === 'reasoning-delta' || (last.type === 'text-delta' && last.part === e.part))
  )
    return { ...last, text: last.text + e.text, t: e.t };
  return undefined;
}
