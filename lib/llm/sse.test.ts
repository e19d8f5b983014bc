import { _iterSSEMessages } from 'openai/core/streaming';
import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

/** What the `openai` package's own reader makes of `chunks` (its events' fields), the reference this one follows. */
async function sdkEvents(chunks: Uint8Array[]): Promise<[string | null, string][]> {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  const out: [string | null, string][] = [];
  for await (const sse of _iterSSEMessages(new Response(body), new AbortController())) out.push([sse.event, sse.data]);
  return out;
}

/** What SseParser makes of the same chunks, decoded as the model call decodes them. */
function ourEvents(chunks: Uint8Array[], data: string[] = []): [string | null, string][] {
  const out: [string | null, string][] = [];
  const parser = new SseParser(
    (event, d) => out.push([event, d]),
    (value) => data.push(value),
  );
  const decoder = new TextDecoder();
  for (const chunk of chunks) parser.push(decoder.decode(chunk, { stream: true }));
  parser.push(decoder.decode());
  parser.end();
  return out;
}

const bytes = (s: string) => new TextEncoder().encode(s);

/** Streams whose every cut point is tried: line endings of each kind, comments, fields, several data lines. */
const STREAMS = [
  'data: {"a":1}\n\ndata: {"b":2}\r\n\r\n: keep-alive\ndata: [DONE]\n\n',
  'event: error\ndata: {"error":{"message":"overloaded"}}\n\n',
  'data:no-space\rdata:  two spaces\r\rid: 7\nretry: 100\nunknown\ndata\n\n',
  'data: first line\ndata: second line\n\n\n\ndata: {"x":"é中😀"}\r\n\r\n',
  'event: thread.run\ndata: {}\n\ndata: {"tail":true}\n\ndata: {"no":"blank line after"}',
  '\r\n\r\n:only comments\r\n\r\ndata: {}\r\n\r\n',
];

describe('SseParser', () => {
  it.each(STREAMS.map((s, i) => [i, s] as const))(
    'reads stream %i as the openai package does, wherever the network cuts it',
    async (_i, text) => {
      const whole = bytes(text);
      const expected = await sdkEvents([whole]);
      expect(expected.length).toBeGreaterThan(0);
      expect(ourEvents([whole])).toEqual(expected);
      for (let cut = 1; cut < whole.length; cut++) {
        const split = [whole.slice(0, cut), whole.slice(cut)];
        expect(ourEvents(split), `cut at byte ${cut}`).toEqual(await sdkEvents(split));
      }
      // One byte at a time: every CR, LF and UTF-8 sequence split.
      const single = [...whole].map((b) => Uint8Array.of(b));
      expect(ourEvents(single)).toEqual(await sdkEvents(single));
    },
  );

  it('hands on each data line as it is read, [DONE] included (the raw stream recorder)', () => {
    const data: string[] = [];
    ourEvents([bytes('data: {"a":1}\n\ndata: {"b"'), bytes(':2}\r\n\n: comment\ndata: [DONE]\n\n')], data);
    expect(data).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
  });

  it('reads one event of 4 MB sent in 1 KB network chunks', () => {
    // The SDK's reader copies all it holds on every network chunk: ~8 GB of copying for this one (bench/sse-reader).
    const line = `data: ${'x'.repeat(4 * 1024 * 1024)}\n\n`;
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < line.length; i += 1024) chunks.push(bytes(line.slice(i, i + 1024)));
    const events = ourEvents(chunks);
    expect(events).toHaveLength(1);
    expect(events[0]![1]).toHaveLength(4 * 1024 * 1024);
  });
});
