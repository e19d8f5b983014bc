// The idle-stream timeout: one timer per model for all of its open streams, instead of one per call. A timer per
// call cost more than the rest of reading a short stream; this one is re-armed only when it fires or when a stream
// with an earlier deadline starts.

export interface WatchedStream {
  /** performance.now() of the last chunk (or of the response headers). */
  lastActivity: number;
  idleTimeoutMs: number;
  /** Called once, when the stream has been silent for idleTimeoutMs. */
  onIdle(): void;
}

export class IdleWatch {
  // An array, searched from the end on removal: cheaper than a Set for the few streams a model has open at once.
  private readonly streams: WatchedStream[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private due = Infinity;

  watch(stream: WatchedStream): void {
    this.streams.push(stream);
    const due = stream.lastActivity + stream.idleTimeoutMs;
    if (due < this.due) this.arm(due);
  }

  unwatch(stream: WatchedStream): void {
    const i = this.streams.lastIndexOf(stream);
    if (i < 0) return;
    this.streams[i] = this.streams[this.streams.length - 1]!;
    this.streams.pop();
    // The timer is left to fire: stopping it costs as much as letting it find nothing to do.
  }

  private arm(due: number): void {
    clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(this.check, Math.max(0, due - performance.now()));
    this.timer.unref?.(); // an open stream keeps the process alive by itself
  }

  private readonly check = (): void => {
    this.timer = undefined;
    this.due = Infinity;
    const now = performance.now();
    let next = Infinity;
    const idle: WatchedStream[] = [];
    for (const s of this.streams) {
      const due = s.lastActivity + s.idleTimeoutMs;
      if (due <= now) idle.push(s);
      else if (due < next) next = due;
    }
    for (const s of idle) {
      this.unwatch(s);
      s.onIdle();
    }
    if (next < Infinity) this.arm(next);
  };
}
