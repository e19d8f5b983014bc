// A reader that stops reading a run (a closed page: the response stream cancelled, React ending an action's async
// iterable) calls return() or throw() on what it reads. An async generator queues those calls behind the next() in
// flight, and that next() waits for the run's next event: a run that is quiet meanwhile (streaming tool-call
// arguments, running a tool, waiting for the user's decision) never saw its reader go, and went on forever. What
// leavable() returns answers them at once.

/**
 * `source`, except that return() and throw() end it at once, even while a next() is pending: that next() resolves
 * done, `leave` is called (unless the source had already finished), and the source is told to return once it lets
 * go of what it awaits.
 */
export function leavable<T>(source: AsyncIterator<T>, leave: () => void): AsyncGenerator<T, undefined> {
  const done: IteratorResult<T, undefined> = { done: true, value: undefined };
  let over = false;
  let wake!: () => void;
  const left = new Promise<IteratorResult<T, undefined>>((resolve) => {
    wake = () => resolve(done);
  });
  const end = (): void => {
    if (over) return;
    over = true;
    wake();
    leave();
    void source.return?.(undefined)?.catch(() => undefined);
  };
  const iterator: AsyncGenerator<T, undefined> = {
    next(): Promise<IteratorResult<T, undefined>> {
      if (over) return Promise.resolve(done);
      const next = source.next().then(
        (r): IteratorResult<T, undefined> => {
          if (r.done) over = true;
          return r.done ? done : r;
        },
        (e: unknown) => {
          over = true;
          throw e;
        },
      );
      return Promise.race([next, left]);
    },
    return(): Promise<IteratorResult<T, undefined>> {
      end();
      return Promise.resolve(done);
    },
    throw(e?: unknown): Promise<IteratorResult<T, undefined>> {
      end();
      return Promise.reject(e);
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
