// A run in progress on the server: it drains the agent's events into the store whatever happens to its readers,
// and lets any number of readers follow it from the start (a reload re-attaches to a run still going).
import type { AgentEvent, ToolDecision } from '../protocol/events';

export interface FollowOptions {
  /** Merge consecutive deltas that arrive within this window into one event (fewer, larger messages). */
  coalesceMs?: number;
  /** Called when the reader stops before the run ended (a closed page). */
  onLeave?: () => void;
}

export class LiveRun {
  readonly events: AgentEvent[] = [];
  private ended = false;
  private waiters: (() => void)[] = [];
  readonly controller = new AbortController();
  /** Tool calls paused for the user's decision, by function id. */
  private readonly decisions = new Map<string, (decision: ToolDecision) => void>();

  private readonly endedPromise: Promise<void>;
  private resolveEnded!: () => void;

  constructor(
    readonly runId: string,
    readonly conversationId = '',
  ) {
    this.endedPromise = new Promise((resolve) => (this.resolveEnded = resolve));
  }

  /** Resolves once the run has ended and its last event is stored. */
  whenEnded(): Promise<void> {
    return this.endedPromise;
  }

  /** Waits for the user's decision on a paused tool call; rejects when the run is stopped meanwhile. */
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

  /** Hands the user's decision to the paused call. False when no call with that id is waiting. */
  decide(functionId: string, decision: ToolDecision): boolean {
    const resolve = this.decisions.get(functionId);
    if (!resolve) return false;
    resolve(decision);
    return true;
  }

  get done(): boolean {
    return this.ended;
  }

  push(event: AgentEvent): void {
    this.events.push(event);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
    this.resolveEnded();
  }

  stop(): void {
    this.controller.abort();
  }

  /** Every event of the run from `from` on, as they come; ends after run-end. */
  async *follow(opts: FollowOptions = {}, from = 0): AsyncGenerator<AgentEvent> {
    let next = from;
    let finished = false;
    try {
      for (;;) {
        if (next < this.events.length) {
          if (opts.coalesceMs && !this.ended) await delay(opts.coalesceMs);
          const batch = this.events.slice(next);
          next += batch.length;
          for (const e of opts.coalesceMs ? coalesce(batch) : batch) yield e;
          continue;
        }
        if (this.ended) {
          finished = true;
          return;
        }
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
    } finally {
      if (!finished && !this.ended) opts.onLeave?.();
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Consecutive text or reasoning deltas of the same iteration become one event (with the later clock). */
export function coalesce(events: AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (
      last &&
      (e.type === 'text-delta' || e.type === 'reasoning-delta') &&
      last.type === e.type &&
      last.iteration === e.iteration
    ) {
      out[out.length - 1] = { ...last, text: last.text + e.text, t: e.t };
    } else out.push(e);
  }
  return out;
}
