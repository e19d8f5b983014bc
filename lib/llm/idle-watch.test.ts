import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatch, type WatchedStream } from './idle-watch';

function stream(idleTimeoutMs: number): WatchedStream & { idled: number } {
  const s = {
    lastActivity: performance.now(),
    idleTimeoutMs,
    idled: 0,
    onIdle: () => void s.idled++,
  };
  return s;
}

describe('IdleWatch: one timer for all of a model’s streams', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('times out a silent stream and leaves one that keeps sending', () => {
    const watch = new IdleWatch();
    const quiet = stream(1000);
    const chatty = stream(1000);
    watch.watch(quiet);
    watch.watch(chatty);
    for (let t = 0; t < 5; t++) {
      vi.advanceTimersByTime(400);
      chatty.lastActivity = performance.now();
    }
    expect(quiet.idled).toBe(1);
    expect(chatty.idled).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(chatty.idled).toBe(1);
  });

  it('a stream with an earlier deadline, started later, still times out on time', () => {
    const watch = new IdleWatch();
    const slow = stream(60_000);
    watch.watch(slow);
    vi.advanceTimersByTime(100);
    const fast = stream(300);
    watch.watch(fast);
    vi.advanceTimersByTime(299);
    expect(fast.idled).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fast.idled).toBe(1);
    expect(slow.idled).toBe(0);
  });

  it('a finished stream is never reported, and each stream is reported once', () => {
    const watch = new IdleWatch();
    const done = stream(500);
    const stuck = stream(500);
    watch.watch(done);
    watch.watch(stuck);
    watch.unwatch(done);
    vi.advanceTimersByTime(5000);
    expect(done.idled).toBe(0);
    expect(stuck.idled).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
