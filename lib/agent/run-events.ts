// A run's events as the reader takes them: an async iterator over the run's queue that starts the run at the first
// next(), hands out each batch the loop pushed without an async generator's extra promise turns per event (a run
// emits a few dozen; the generator's turns were a measurable part of what the loop adds to a raw SDK loop), and on
// return() (a break out of for await, a closed page) stops the run and waits for it to wind down.
import type { EventQueue } from './event-queue';

/** A started run, as its reader needs it. */
export interface StartedRun<T> {
  queue: EventQueue<T>;
  /** Stops the run (the reader left before the end). */
  stop(): void;
  /** Waits for the run to finish; rejects if it failed outside its own error handling. */
  finished(): Promise<void>;
}

export class RunEvents<T> implements AsyncGenerator<T, void, undefined> {
  private run?: StartedRun<T>;
  private batch: T[] = [];
  private at = 0;
  private over = false;
  /** The pull in progress: a next() called before it settles waits for it, so events keep their order. */
  private pulling?: Promise<IteratorResult<T, void>>;

  constructor(private readonly start: () => StartedRun<T>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, void>> {
    if (this.pulling) return this.pulling.then(() => this.next());
    if (this.at < this.batch.length) return Promise.resolve({ value: this.batch[this.at++]!, done: false });
    const pulling = this.pull().then(
      (result) => {
        this.pulling = undefined;
        return result;
      },
      (e: unknown) => {
        this.pulling = undefined;
        throw e;
      },
    );
    this.pulling = pulling;
    return pulling;
  }

  async return(): Promise<IteratorResult<T, void>> {
    if (this.pulling) await this.pulling.catch(() => {});
    this.batch = [];
    this.at = 0;
    const run = this.run;
    if (run && !this.over) {
      this.over = true;
      if (!run.queue.isClosed) run.stop();
      await run.finished();
    }
    this.over = true;
    return { value: undefined, done: true };
  }

  async throw(e: unknown): Promise<IteratorResult<T, void>> {
    await this.return();
    throw e;
  }

  private async pull(): Promise<IteratorResult<T, void>> {
    if (this.over) return { value: undefined, done: true };
    const run = (this.run ??= this.start());
    for (;;) {
      // take() hands over its array until the next take(), which comes only once this batch is read.
      const batch = run.queue.take();
      if (batch.length) {
        this.batch = batch;
        this.at = 1;
        return { value: batch[0]!, done: false };
      }
      if (run.queue.isClosed) {
        this.over = true;
        await run.finished();
        return { value: undefined, done: true };
      }
      await run.queue.whenPast(run.queue.size);
    }
  }
}
