// The provider's stream as received, for the inspector's "Raw stream" tab: each SSE `data:` payload as the model
// call reads it (lib/llm/sse.ts) and when it arrived (milliseconds since the call was sent).
// Bounded per call; what does not fit is counted, not kept.
import type { RawStream } from '../protocol/events';

/** At most this many chunks, and this many bytes of payload, are kept per model call. */
export const RAW_STREAM_LIMITS = { chunks: 2000, bytes: 1_000_000 } as const;

export class RawStreamRecorder {
  private readonly chunks: RawStream['chunks'] = [];
  private bytes = 0;
  private dropped = 0;

  constructor(private readonly started: number) {}

  add(data: string): void {
    const size = Buffer.byteLength(data);
    if (this.chunks.length >= RAW_STREAM_LIMITS.chunks || this.bytes + size > RAW_STREAM_LIMITS.bytes) {
      this.dropped++;
      return;
    }
    this.bytes += size;
    this.chunks.push({ t: Math.round((performance.now() - this.started) * 10) / 10, data });
  }

  result(): RawStream {
    return { chunks: this.chunks, dropped: this.dropped, bytes: this.bytes };
  }
}
