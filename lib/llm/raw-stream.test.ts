import { describe, expect, it } from 'vitest';
import { RAW_STREAM_LIMITS, RawStreamRecorder } from './raw-stream';

describe('RawStreamRecorder', () => {
  it('keeps chunks up to its bounds and counts the rest', () => {
    const r = new RawStreamRecorder(performance.now());
    for (let i = 0; i < RAW_STREAM_LIMITS.chunks + 5; i++) r.add(`{"i":${i}}`);
    const out = r.result();
    expect(out.chunks).toHaveLength(RAW_STREAM_LIMITS.chunks);
    expect(out.dropped).toBe(5);
    expect(out.chunks[0]!.data).toBe('{"i":0}');

    const big = new RawStreamRecorder(performance.now());
    big.add('x'.repeat(RAW_STREAM_LIMITS.bytes - 1));
    big.add('yy');
    big.add('z');
    expect(big.result()).toMatchObject({ dropped: 1, bytes: RAW_STREAM_LIMITS.bytes });
  });

  it('reads data lines split across network chunks, and passes the body on unchanged', async () => {
    const full = 'data: {"a":1}\n\ndata: {"b":2}\r\n\n: comment\ndata: [DONE]\n\n';
    const r = new RawStreamRecorder(performance.now());
    const send = (async () =>
      new Response(
        new ReadableStream({
          start(c) {
            // Cut in the middle of the second data line.
            c.enqueue(new TextEncoder().encode(full.slice(0, 20)));
            c.enqueue(new TextEncoder().encode(full.slice(20)));
            c.close();
          },
        }),
      )) as typeof fetch;
    const res = await r.fetch(send)('http://x');
    expect(await res.text()).toBe(full);
    expect(r.result().chunks.map((c) => c.data)).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
  });
});
