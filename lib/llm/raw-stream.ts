// The provider's stream as received, for the inspector's "Raw stream" tab: a fetch that passes the response body on
// untouched while it notes each SSE `data:` payload and when it arrived (milliseconds since the call was sent).
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

  /**
   * A fetch for the SDK: the response of `send` (the client's own fetch: a connection's guarded one, which checks
   * the address where it connects), its body read through this recorder.
   */
  fetch(send: typeof fetch): typeof fetch {
    return async (input, init) => {
      const res = await send(input, init);
      if (!res.body) return res;
      const decoder = new TextDecoder();
      let pending = '';
      const take = (text: string) => {
        pending += text;
        let at: number;
        while ((at = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, at).replace(/\r$/, '');
          pending = pending.slice(at + 1);
          if (line.startsWith('data:')) this.add(line.slice(5).replace(/^ /, ''));
        }
      };
      const tap = new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          take(decoder.decode(chunk, { stream: true }));
          controller.enqueue(chunk);
        },
        flush: () => take(`${decoder.decode()}\n`),
      });
      return new Response(res.body.pipeThrough(tap), {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    };
  }
}
