import { describe, expect, it } from 'vitest';
import { EventQueue } from './event-queue';
import { RunEvents, type StartedRun } from './run-events';

/** A run that pushes `items` one promise turn apart, and notes whether it was started and stopped. */
function fakeRun(items: number[]) {
  const seen = { started: false, stopped: false, finished: false };
  const events = new RunEvents<number>((): StartedRun<number> => {
    seen.started = true;
    const queue = new EventQueue<number>();
    const driving = (async () => {
      for (const item of items) {
        if (seen.stopped) break;
        queue.push(item);
        await Promise.resolve();
      }
      queue.close();
    })();
    return {
      queue,
      stop: () => (seen.stopped = true),
      finished: () => driving.then(() => void (seen.finished = true)),
    };
  });
  return { events, seen };
}

describe('RunEvents', () => {
  it('hands out every event in order and ends once the run has finished', async () => {
    const { events, seen } = fakeRun([1, 2, 3, 4, 5]);
    const got: number[] = [];
    for await (const n of events) got.push(n);
    expect(got).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual({ started: true, stopped: false, finished: true });
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('starts the run only at the first next()', async () => {
    const { events, seen } = fakeRun([1]);
    expect(seen.started).toBe(false);
    await events.return();
    expect(seen.started).toBe(false);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('stops the run and waits for it when the reader leaves early', async () => {
    const { events, seen } = fakeRun([1, 2, 3, 4, 5]);
    const got: number[] = [];
    for await (const n of events) {
      got.push(n);
      if (n === 2) break;
    }
    expect(got).toEqual([1, 2]);
    expect(seen.stopped).toBe(true);
    expect(seen.finished).toBe(true);
  });

  it('keeps the order when next() is called again before the last one settled', async () => {
    const { events } = fakeRun([1, 2, 3]);
    const results = await Promise.all([events.next(), events.next(), events.next(), events.next()]);
    expect(results.map((r) => r.value)).toEqual([1, 2, 3, undefined]);
    expect(results[3]!.done).toBe(true);
  });

  it('wakes a reader that waits for the next event when the run closes its queue instead', async () => {
    let close = () => {};
    const events = new RunEvents<number>(() => {
      const queue = new EventQueue<number>();
      close = () => queue.close();
      return { queue, stop: () => {}, finished: () => Promise.resolve() };
    });
    const waiting = events.next();
    close();
    expect(await waiting).toEqual({ value: undefined, done: true });
  });

  it('rejects next() when the run cannot start, and when it fails after its last event', async () => {
    const unstartable = new RunEvents<number>(() => {
      throw new Error('no model');
    });
    await expect(unstartable.next()).rejects.toThrow('no model');
    const failing = new RunEvents<number>(() => {
      const queue = new EventQueue<number>();
      queue.push(1);
      queue.close();
      return { queue, stop: () => {}, finished: () => Promise.reject(new Error('loop crashed')) };
    });
    expect(await failing.next()).toEqual({ value: 1, done: false });
    await expect(failing.next()).rejects.toThrow('loop crashed');
  });

  it('throw() stops the run and rethrows', async () => {
    const { events, seen } = fakeRun([1, 2, 3]);
    await events.next();
    await expect(events.throw(new Error('reader failed'))).rejects.toThrow('reader failed');
    expect(seen.stopped).toBe(true);
  });
});
