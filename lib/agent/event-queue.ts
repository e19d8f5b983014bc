// Events written by one producer and read as they come. The agent's run drains its queue with one reader (an event
// is handed on once, then forgotten); a live run keeps every event so that any number of followers can read it from
// the first one (lib/chat/live-runs.ts).

export class EventQueue<T> {
  private items: T[] = [];
  /** The array take() handed out last time, reused for what comes next (a run's reader takes a batch per wake). */
  private spare: T[] = [];
  /** Items a draining reader has taken (they are no longer held). */
  private taken = 0;
  private closed = false;
  private waiting: (() => void)[] = [];

  push(item: T): void {
    this.items.push(item);
    if (this.waiting.length) this.wake();
  }

  /** No more items will come; readers finish once they have read what is there. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** How many items were ever pushed. */
  get size(): number {
    return this.taken + this.items.length;
  }

  /** Everything pushed and not taken yet, handed over once: for the one reader of a queue nobody follows later.
   *  The array is the reader's until its next take(). */
  take(): T[] {
    const out = this.items;
    if (!out.length) return out;
    this.spare.length = 0;
    this.items = this.spare;
    this.spare = out;
    this.taken += out.length;
    return out;
  }

  /** The items from the `index`-th pushed on: for followers of a queue that keeps its items. */
  since(index: number): T[] {
    return this.items.slice(index - this.taken);
  }

  /** Resolves once more than `index` items were pushed, or the queue is closed. */
  whenPast(index: number): Promise<void> {
    if (this.closed || index < this.size) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Calls `wake` once, at the next push or at close, inside that call (the reader of a run's queue waits with its
   *  own promise instead of one made here). */
  onNext(wake: () => void): void {
    this.waiting.push(wake);
  }

  private wake(): void {
    const waiting = this.waiting;
    if (waiting.length === 1) {
      // The usual case (one reader): no new array per event.
      const resolve = waiting[0]!;
      waiting.length = 0;
      return resolve();
    }
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
