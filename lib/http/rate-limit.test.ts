import { describe, expect, it } from 'vitest';
import { ByteBudget, RateLimitError, RunLimiter, SlidingWindow } from './rate-limit';

describe('SlidingWindow', () => {
  it('allows `limit` events per window and says how long to wait for the next', () => {
    const w = new SlidingWindow(2, 60_000);
    expect(w.hit('a', 0)).toBe(0);
    expect(w.hit('a', 10_000)).toBe(0);
    expect(w.hit('a', 20_000)).toBe(40_000); // the first event leaves the window at 60 s
    expect(w.hit('b', 20_000)).toBe(0);
    expect(w.hit('a', 60_000)).toBe(0);
  });
});

describe('RunLimiter', () => {
  it('counts runs going at once per client, and frees a slot when a run ends', () => {
    const l = new RunLimiter({ maxConcurrent: 2, perMinute: 100 });
    const a = l.acquire('c');
    l.acquire('c');
    expect(() => l.acquire('c')).toThrow(RateLimitError);
    expect(() => l.acquire('d')).not.toThrow();
    a.release();
    a.release(); // twice changes nothing
    expect(() => l.acquire('c')).not.toThrow();
    expect(() => l.acquire('c')).toThrow(/Too many runs at once: 2 of yours are still going/);
    // Coded, so that the page says it in its language.
    expect(() => l.acquire('c')).toThrow(
      expect.objectContaining({ code: 'too-many-runs', values: { running: 2, limit: 2 } }),
    );
  });

  it('counts starts per minute; a refunded start does not count', () => {
    const l = new RunLimiter({ maxConcurrent: 10, perMinute: 2 });
    l.refund('c', l.acquire('c'));
    l.acquire('c').release();
    l.acquire('c').release();
    const e = (() => {
      try {
        l.acquire('c');
      } catch (err) {
        return err as RateLimitError;
      }
    })();
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e!.status).toBe(429);
    expect(e!.retryAfterS).toBeGreaterThan(0);
    expect(e).toMatchObject({ code: 'too-many-starts', values: { limit: 2, seconds: e!.retryAfterS } });
    expect(e!.message).toMatch(
      /^Too many runs started: the limit is 2 a minute \(MAX_RUNS_PER_MINUTE\)\. Try again in \d+ s\.$/,
    );
  });
});

describe('ByteBudget', () => {
  it('allows `maxBytes` per key a day, counted by the minute, and says when the oldest minute leaves the window', () => {
    const day = 24 * 3600_000;
    const b = new ByteBudget(1000);
    // A write every second for a minute: one minute's entry, leaving the window a day after that minute began.
    for (let s = 0; s < 60; s++) b.spend('a', 10, s * 1000);
    expect(b.left('a', 60_000)).toEqual({ bytes: 400, retryAfterS: day / 1000 - 60 });
    b.spend('a', 400, 90_000);
    expect(b.left('a', 90_000).bytes).toBe(0);
    expect(b.left('b', 90_000)).toEqual({ bytes: 1000, retryAfterS: 0 });
    // The first minute's 600 bytes are allowed again a day after it began, the second minute's a minute later.
    expect(b.left('a', day - 1).bytes).toBe(0);
    expect(b.left('a', day)).toEqual({ bytes: 600, retryAfterS: 60 });
    expect(b.left('a', day + 60_000)).toEqual({ bytes: 1000, retryAfterS: 0 });
  });
});
