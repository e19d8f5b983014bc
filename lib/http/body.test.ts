import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBodyText } from './body';

function streamed(pieces: string[], pulled: { n: number }): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    pull(c) {
      if (pulled.n >= pieces.length) return c.close();
      c.enqueue(enc.encode(pieces[pulled.n++]!));
    },
  });
}

const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('readBodyText', () => {
  it('counts bytes, not characters: 4 characters of 3 bytes each pass a 12-byte limit, 5 do not', async () => {
    expect(await readBodyText(post(streamed(['中文中文'], { n: 0 })), 12)).toBe('中文中文');
    await expect(readBodyText(post(streamed(['中文中文中'], { n: 0 })), 12)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it('stops reading soon after the limit: at most 64 MB more is read (and dropped), never the whole body', async () => {
    const pulled = { n: 0 };
    const pieces = Array.from({ length: 100 }, () => 'x'.repeat(1_000_000)); // 100 MB
    await expect(readBodyText(post(streamed(pieces, pulled)), 4500)).rejects.toThrow('larger than the 4.4 KB limit');
    await new Promise((r) => setTimeout(r, 200));
    expect(pulled.n).toBeGreaterThan(1);
    expect(pulled.n).toBeLessThan(80);
  });

  it('refuses a declared Content-Length over the limit without reading', async () => {
    const pulled = { n: 0 };
    await expect(readBodyText(post(streamed(['x'], pulled), { 'content-length': '99999' }), 10)).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    expect(pulled.n).toBeLessThanOrEqual(1); // a stream fills its queue of one on its own; nothing is read
  });
});
