// Limits per client: runs going at once, runs started per minute, upload bytes per day. "Client" is whatever
// key the caller passes (the peer address today, the signed-in user once accounts exist: lib/http/client.ts).
// Process-wide state (lib/config/process-wide.ts): the proxy and the route handlers are separate bundles of one
// process.
import { processWide } from '../config/process-wide';
import { CodedError, type ErrorCode, type ErrorValues } from '../protocol/errors';

/** A limit reached; coded, since the page shows it (a run refused). */
export class RateLimitError extends CodedError {
  override name = 'RateLimitError';
  constructor(
    code: ErrorCode,
    message: string,
    /** Whole seconds to wait before trying again (the Retry-After header). */
    readonly retryAfterS: number,
    values?: ErrorValues,
  ) {
    super(code, message, values, 429);
  }
}

/** At most `limit` events per key in any `windowMs`. */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const kept = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (kept.length) this.hits.set(key, kept);
    else this.hits.delete(key);
    return kept;
  }

  /** Milliseconds until one more event would be allowed (0: now). */
  waitMs(key: string, now = Date.now()): number {
    const kept = this.recent(key, now);
    return kept.length < this.limit ? 0 : kept[kept.length - this.limit]! + this.windowMs - now;
  }

  /** Records an event if allowed; returns the wait otherwise (nothing recorded). */
  hit(key: string, now = Date.now()): number {
    const wait = this.waitMs(key, now);
    if (wait === 0) this.hits.set(key, [...this.recent(key, now), now]);
    return wait;
  }

  /** Forgets the key's latest event (a run that failed to start does not count). */
  undo(key: string): void {
    const kept = this.hits.get(key);
    kept?.pop();
    if (kept && !kept.length) this.hits.delete(key);
  }
}

export interface RunSlot {
  release(): void;
}

export class RunLimiter {
  private readonly active = new Map<string, number>();
  private readonly starts: SlidingWindow;

  constructor(readonly opts: { maxConcurrent: number; perMinute: number }) {
    this.starts = new SlidingWindow(opts.perMinute, 60_000);
  }

  /** A slot for one run of this client, or a RateLimitError saying which limit and how long to wait. */
  acquire(client: string): RunSlot {
    const running = this.active.get(client) ?? 0;
    if (running >= this.opts.maxConcurrent)
      throw new RateLimitError(
        'too-many-runs',
        `Too many runs at once: ${running} of yours are still going (the limit is ${this.opts.maxConcurrent}, ` +
          `MAX_CONCURRENT_RUNS). Wait for one to end, or stop one.`,
        5,
        { running, limit: this.opts.maxConcurrent },
      );
    const wait = this.starts.hit(client);
    if (wait > 0) {
      const s = Math.ceil(wait / 1000);
      throw new RateLimitError(
        'too-many-starts',
        `Too many runs started: the limit is ${this.opts.perMinute} a minute (MAX_RUNS_PER_MINUTE). ` +
          `Try again in ${s} s.`,
        s,
        { limit: this.opts.perMinute, seconds: s },
      );
    }
    this.active.set(client, running + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const n = (this.active.get(client) ?? 1) - 1;
        if (n > 0) this.active.set(client, n);
        else this.active.delete(client);
      },
    };
  }

  /** Gives back a slot whose run never started: it counts neither as running nor as started. */
  refund(client: string, slot: RunSlot): void {
    slot.release();
    this.starts.undo(client);
  }
}

function limits(): Map<string, unknown> {
  return processWide('limits', () => new Map<string, unknown>());
}

/** One instance per process and name (created by the first caller, with its options). */
export function shared<T>(name: string, make: () => T): T {
  const all = limits();
  if (!all.has(name)) all.set(name, make());
  return all.get(name) as T;
}

/** Forgets every limit's state (tests). */
export function clearLimits(): void {
  limits().clear();
}

/** At most `maxBytes` per key in any `windowMs` (uploads: UPLOAD_BYTES_PER_DAY per user; stored run events:
 *  RUN_BYTES_PER_DAY). What a key spends within one minute is kept as one entry, which leaves the window `windowMs`
 *  after that minute began: a run that spends at every write keeps at most a day's minutes per key. */
export class ByteBudget {
  private readonly spent = new Map<string, { t: number; bytes: number }[]>();

  constructor(
    readonly maxBytes: number,
    readonly windowMs = 24 * 3600_000,
  ) {}

  private recent(key: string, now: number): { t: number; bytes: number }[] {
    const kept = (this.spent.get(key) ?? []).filter((e) => now - e.t < this.windowMs);
    if (kept.length) this.spent.set(key, kept);
    else this.spent.delete(key);
    return kept;
  }

  /** What the key may still spend now, and in how many whole seconds its oldest spending leaves the window. */
  left(key: string, now = Date.now()): { bytes: number; retryAfterS: number } {
    const kept = this.recent(key, now);
    const used = kept.reduce((sum, e) => sum + e.bytes, 0);
    const retryAfterS = kept.length ? Math.max(1, Math.ceil((kept[0]!.t + this.windowMs - now) / 1000)) : 0;
    return { bytes: Math.max(0, this.maxBytes - used), retryAfterS };
  }

  /** Counts `bytes` against the key; resolves with what it may still spend (0 once spent). */
  spend(key: string, bytes: number, now = Date.now()): number {
    const kept = this.recent(key, now);
    const minute = Math.floor(now / 60_000) * 60_000;
    const last = kept.at(-1);
    const entries = last?.t === minute ? kept : [...kept, { t: minute, bytes: 0 }];
    entries.at(-1)!.bytes += bytes;
    this.spent.set(key, entries);
    return Math.max(0, this.maxBytes - entries.reduce((sum, e) => sum + e.bytes, 0));
  }
}
