import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, LINGER_MS, readBodyText } from './body';

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

  it('after the limit, goes on reading (and dropping) an endless body for a while, so the refusal is sent first; then stops', async () => {
    const pulled = { n: 0, cancelled: false };
    const endless = new ReadableStream<Uint8Array>({
      async pull(c) {
        await new Promise((r) => setTimeout(r, 2)); // a fast client: 1 MB every few ms
        pulled.n++;
        c.enqueue(new Uint8Array(1_000_000));
      },
      cancel() {
        pulled.cancelled = true;
      },
    });
    await expect(readBodyText(post(endless), 4500)).rejects.toThrow('larger than the 4.4 KB limit');
    const atCut = pulled.n;
    await new Promise((r) => setTimeout(r, LINGER_MS / 2));
    // Still reading well after the cut, past any byte count a fast client sends in that time.
    expect(pulled.cancelled).toBe(false);
    expect(pulled.n).toBeGreaterThan(atCut + 20);
    await new Promise((r) => setTimeout(r, LINGER_MS / 2 + 500));
    expect(pulled.cancelled).toBe(true);
    const stopped = pulled.n;
    await new Promise((r) => setTimeout(r, 200));
    expect(pulled.n).toBeLessThanOrEqual(stopped + 1);
  });

  it('refuses a declared Content-Length over the limit without reading', async () => {
    const pulled = { n: 0 };
    await expect(readBodyText(post(streamed(['x'], pulled), { 'content-length': '99999' }), 10)).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
    expect(pulled.n).toBeLessThanOrEqual(1); // a stream fills its queue of one on its own; nothing is read
  });
});
