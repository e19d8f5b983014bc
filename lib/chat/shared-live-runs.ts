// The runs in progress when several instances share one database (PostgreSQL): this instance's own runs, as in
// live-runs.ts, plus the runs other instances drive, reached through the store's run bus (lib/store/run-bus.ts).
// - Following another instance's run reads its log from the store, from the first event, and reads more each time
//   the bus says the log grew; it ends with the run (its run-end, or the run marked interrupted). One reader of the
//   log per run per instance, however many pages follow it here.
// - Stopping it, or deciding one of its paused tool calls, is sent to the instance that drives it, which answers.
// - Another instance's run is reached only once the store's owner-scoped lookup finds it the caller's (another
//   owner's run reads as not in progress, as in live-runs.ts); the instance that drives it trusts that check.
// - This instance holds a lease on each run it drives until the run has ended (the bus renews it).
import type { ByteBudget } from '../http/rate-limit';
import { EventQueue } from '../agent/event-queue';
import type { AgentEvent, ToolDecision } from '../protocol/events';
import type { OwnerScope } from '../store/owner';
import type { ControlAnswer, RunBus, RunControl } from '../store/run-bus';
import type { ChatStore } from '../store/types';
import {
  followQueue,
  InMemoryLiveRuns,
  type DecideResult,
  type FollowOptions,
  type LiveRuns,
  type RunWriter,
} from './live-runs';

/** How long stopping a conversation waits for another instance's runs to end before it goes on (a dead instance's
 *  runs end when their lease runs out; deleting the conversation ends them anyway). */
const REMOTE_END_WAIT_MS = 5_000;

export class SharedLiveRuns implements LiveRuns {
  private readonly local: InMemoryLiveRuns;
  /** Runs of other instances followed from here, by id. */
  private readonly mirrors = new Map<string, Promise<RemoteRun | undefined>>();

  constructor(
    private readonly store: ChatStore,
    private readonly bus: RunBus,
    storage?: ByteBudget,
  ) {
    this.local = new InMemoryLiveRuns(store, {
      started: (runId) => bus.hold(runId),
      ended: (runId) => bus.release(runId),
      sweptByLease: true,
      storage,
    });
    bus.onControl((runId, message) => this.answer(runId, message));
  }

  start(owner: OwnerScope, runId: string, conversationId: string): RunWriter {
    return this.local.start(owner, runId, conversationId);
  }

  /** Only this instance's own runs; the others' go on where they are. */
  interruptAll(): Promise<number> {
    return this.local.interruptAll();
  }

  /** Is the run the owner's? (Another instance's run is checked in the store before anything is sent to it.) */
  private async owns(owner: OwnerScope, runId: string): Promise<boolean> {
    return (await this.store.getRun(owner, runId)) !== undefined;
  }

  async follow(
    owner: OwnerScope,
    runId: string,
    opts: FollowOptions = {},
  ): Promise<AsyncGenerator<AgentEvent> | undefined> {
    if (this.local.has(runId)) return this.local.follow(owner, runId, opts);
    if (!(await this.owns(owner, runId))) return undefined;
    return (await this.mirror(runId))?.follow(opts);
  }

  async stop(owner: OwnerScope, runId: string, opts: { unlessFollowedWithinMs?: number } = {}): Promise<boolean> {
    if (this.local.has(runId)) return this.local.stop(owner, runId, opts);
    if (!(await this.owns(owner, runId))) return false;
    // Whether a page follows it is known where it runs: a reader leaving here leaves it to that instance's pages.
    if (opts.unlessFollowedWithinMs !== undefined) return true;
    try {
      return (await this.bus.control(runId, { kind: 'stop' })) === 'stopped';
    } catch {
      // Its instance did not answer in time: it is busy, or dead and its lease will run out. The stop is left for
      // it to find; the run is still going as far as anyone can tell.
      return true;
    }
  }

  async decide(owner: OwnerScope, runId: string, functionId: string, decision: ToolDecision): Promise<DecideResult> {
    if (this.local.has(runId)) return this.local.decide(owner, runId, functionId, decision);
    if (!(await this.owns(owner, runId))) return 'not-running';
    const answer = await this.bus.control(runId, { kind: 'decide', functionId, decision });
    return answer === 'stopped' ? 'not-running' : answer;
  }

  async stopConversation(owner: OwnerScope, conversationId: string): Promise<void> {
    const mine = (await this.store.getConversation(owner, conversationId)) !== undefined;
    const remote = mine ? (await this.bus.runningRunsOf(conversationId)).filter((id) => !this.local.has(id)) : [];
    await Promise.all([
      this.local.stopConversation(owner, conversationId),
      ...remote.map(async (id) => {
        await this.stop(owner, id);
        await Promise.race([this.ended(id), new Promise((r) => setTimeout(r, REMOTE_END_WAIT_MS))]);
      }),
    ]);
  }

  /** Runs here are closed by the lease sweep (sweptByLease), and a start sees a lapsed lease as closed. */
  closeUnsettled(owner: OwnerScope, conversationId: string): Promise<void> {
    return this.local.closeUnsettled(owner, conversationId);
  }

  async runningIn(owner: OwnerScope, conversationId: string): Promise<string[]> {
    if (!(await this.store.getConversation(owner, conversationId))) return [];
    return this.bus.runningRunsOf(conversationId);
  }

  async ended(runId: string): Promise<void> {
    if (this.local.has(runId)) return this.local.ended(runId);
    await (
      await this.mirror(runId)
    )?.closed;
  }

  /** A control another instance sent for one of this instance's runs. */
  private async answer(runId: string, message: RunControl): Promise<ControlAnswer> {
    if (message.kind === 'stop') return this.local.stopHere(runId) ? 'stopped' : 'not-running';
    return this.local.decideHere(runId, message.functionId, message.decision);
  }

  /** The reader of another instance's run (made on first use); undefined when the run is not in progress. */
  private async mirror(runId: string): Promise<RemoteRun | undefined> {
    let mirror = this.mirrors.get(runId);
    if (mirror && (await mirror)?.events.isClosed) mirror = undefined; // ended: its log holds it
    if (!mirror) {
      mirror = RemoteRun.open(this.bus, runId);
      this.mirrors.set(runId, mirror);
      void mirror.then((m) => {
        if (!m) this.mirrors.delete(runId);
        else void m.closed.then(() => this.mirrors.delete(runId));
      });
    }
    return mirror;
  }
}

/** Another instance's run as read from the store: its events so far and as they come, until it ends. */
class RemoteRun {
  readonly events = new EventQueue<AgentEvent>();
  readonly closed: Promise<void>;
  private lastSeq = -1;
  private reading?: Promise<void>;
  private again = false;
  /** Set once the first read is in: a change before it is read by the first read, or right after it. */
  private started = false;
  private unwatch?: () => void;
  private poll?: ReturnType<typeof setInterval>;
  private resolveClosed!: () => void;

  private constructor(
    private readonly bus: RunBus,
    private readonly runId: string,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  static async open(bus: RunBus, runId: string): Promise<RemoteRun | undefined> {
    const run = new RemoteRun(bus, runId);
    // Listen first, then read: nothing stored in between is missed.
    run.unwatch = await bus.watch(runId, () => run.changed());
    const first = await bus.readTail(runId, -1).catch((e: unknown) => {
      run.close();
      throw e;
    });
    if (!first?.running) {
      // Not in progress (ended, or unknown): its log is read as a stored run's.
      run.close();
      return undefined;
    }
    run.take(first.events, first.lastSeq, first.running);
    run.started = true;
    if (run.again) run.changed();
    // A notification lost with a dropped connection is made up for when it comes back; this slow look is the last
    // resort, not the way events arrive.
    if (!run.events.isClosed) {
      run.poll = setInterval(() => run.changed(), bus.lease.heartbeatMs * 2);
      run.poll.unref();
    }
    return run;
  }

  follow(opts: FollowOptions): AsyncGenerator<AgentEvent> {
    return followQueue(this.events, opts);
  }

  /** The log may have grown: read what is new (one read at a time; a change during a read reads again). */
  private changed(): void {
    if (this.events.isClosed) return;
    if (this.reading || !this.started) {
      this.again = true;
      return;
    }
    this.reading = (async () => {
      try {
        do {
          this.again = false;
          const tail = await this.bus.readTail(this.runId, this.lastSeq);
          if (!tail) return this.close(); // deleted
          this.take(tail.events, tail.lastSeq, tail.running);
        } while (this.again && !this.events.isClosed);
      } catch {
        // the database is unreachable for now: the next change or the slow look tries again
      } finally {
        this.reading = undefined;
      }
    })();
  }

  private take(events: readonly AgentEvent[], lastSeq: number, running: boolean): void {
    for (const e of events) this.events.push(e);
    this.lastSeq = lastSeq;
    // Closed once the run reads as ended (finished after its run-end was stored, or interrupted).
    if (!running) this.close();
  }

  private close(): void {
    clearInterval(this.poll);
    this.unwatch?.();
    this.events.close();
    this.resolveClosed();
  }
}
