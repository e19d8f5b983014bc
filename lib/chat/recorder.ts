// Writes a run's events to its log in order, and hands each on to the run's followers only once it is stored (what
// the page shows is never more than what a restart keeps). Events that arrive while a write is in flight go
// together in the next one: one transaction for a burst of deltas instead of one per event.
import type { AgentEvent } from '../protocol/events';
import type { ChatStore } from '../store/types';

export class RunRecorder {
  private pending: AgentEvent[] = [];
  private writing?: Promise<void>;
  private error?: unknown;

  constructor(
    private readonly store: ChatStore,
    private readonly runId: string,
    private readonly onStored: (event: AgentEvent) => void,
  ) {}

  /** Set once a write failed; later events are not written. */
  get failed(): unknown {
    return this.error;
  }

  add(event: AgentEvent): void {
    if (this.error !== undefined) return;
    this.pending.push(event);
    this.writing ??= this.write();
  }

  /** Resolves once everything added is stored (and handed on); rejects with the store's error if a write failed. */
  async flushed(): Promise<void> {
    await this.writing;
    if (this.error !== undefined) throw this.error;
  }

  private async write(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending;
        this.pending = [];
        await this.store.appendEvents(this.runId, batch);
        const end = batch.find((e) => e.type === 'run-end');
        // The run reads as finished before its followers hear that it ended.
        if (end?.type === 'run-end') await this.store.finishRun(this.runId, end.reason, end.error);
        for (const e of batch) this.onStored(e);
      }
    } catch (e) {
      this.error = e;
      this.pending = [];
    } finally {
      this.writing = undefined;
    }
  }
}
