import { describe, expect, it } from 'vitest';
import { RateLimitError, RunLimiter, SlidingWindow } from './rate-limit';

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
