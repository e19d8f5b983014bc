// A run's events as the reader takes them: an async iterator over the run's queue that starts the run at the first
// next(), hands out each batch the loop pushed without an async generator's extra promise turns per event (a run
// emits a few dozen; the generator's turns were a measurable part of what the loop adds to a raw SDK loop), and on
// return() (a break out of for await, a closed page) stops the run and waits for it to wind down.
// An event already queued is handed out at once; a reader that has to wait gets one promise, settled from the
// queue's push or close (an async pull per batch, its wrapper and the queue's own promise were three more each).
import type { EventQueue } from './event-queue';

/** A started run, as its reader needs it. */
export interface StartedRun<T> {
  queue: EventQueue<T>;
  /** Stops the run (the reader left before the end). */
  stop(): void;
  /** Waits for the run to finish; rejects if it failed outside its own error handling. */
  finished(): Promise<void>;
}

const DONE: IteratorReturnResult<void> = Object.freeze({ value: undefined, done: true });

export class RunEvents<T> implements AsyncGenerator<T, void, undefined> {
  private run?: StartedRun<T>;
  private batch: T[] = [];
  private at = 0;
  private over = false;
  /** The wait in progress: a next() called before it settles waits for it, so events keep their order. */
  private pulling?: Promise<IteratorResult<T, void>>;

  constructor(private readonly start: () => StartedRun<T>) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, void>> {
    if (this.pulling) return this.pulling.then(() => this.next());
    if (this.at < this.batch.length) return Promise.resolve({ value: this.batch[this.at++]!, done: false });
    if (this.over) return Promise.resolve(DONE);
    let run: StartedRun<T>;
    try {
      run = this.run ??= this.start();
    } catch (e) {
      return Promise.reject(e);
    }
    const ready = this.take(run);
    if (ready) return Promise.resolve(ready);
    const pulling = run.queue.isClosed ? this.finish(run) : this.wait(run);
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
    return DONE;
  }

  async throw(e: unknown): Promise<IteratorResult<T, void>> {
    await this.return();
    throw e;
  }

  /** The first event of the batch the loop pushed since the last take, if there is one. */
  private take(run: StartedRun<T>): IteratorResult<T, void> | undefined {
    // take() hands over its array until the next take(), which comes only once this batch is read.
    const batch = run.queue.take();
    if (!batch.length) return undefined;
    this.batch = batch;
    this.at = 1;
    return { value: batch[0]!, done: false };
  }

  /** The next event once the loop pushes one, or the end once it closes the queue and the run has finished. */
  private wait(run: StartedRun<T>): Promise<IteratorResult<T, void>> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        const ready = this.take(run);
        if (ready) {
          this.pulling = undefined;
          resolve(ready);
        } else if (run.queue.isClosed) {
          this.finish(run).then(resolve, reject);
        } else run.queue.onNext(wake);
      };
      run.queue.onNext(wake);
    });
  }

  private finish(run: StartedRun<T>): Promise<IteratorResult<T, void>> {
    this.over = true;
    return run.finished().then(
      () => {
        this.pulling = undefined;
        return DONE;
      },
      (e: unknown) => {
        this.pulling = undefined;
        throw e;
      },
    );
  }
}
