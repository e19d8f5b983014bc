// Frames between the host and the CPython kernel (python-kernel.py): a JSON object on one line, then `bytes` raw
// bytes when the header says so. What the kernel sends is untrusted: header length and sizes are checked here.
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';

export class FrameError extends Error {
  override name = 'FrameError';
}

export type FrameHeader = Record<string, unknown>;

/** Reads frames from a stream, one at a time (the stream is paused while a payload is not being consumed). */
export class FrameReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(
    stream: Readable,
    private readonly maxHeaderBytes: number,
  ) {
    this.chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, next.value]) : next.value;
    return true;
  }

  /** The next header; undefined when the stream ended cleanly between frames. */
  async header(): Promise<FrameHeader | undefined> {
    let searched = 0;
    for (;;) {
      const nl = this.buf.indexOf(10, searched);
      if (nl >= 0) {
        const line = this.buf.subarray(0, nl).toString('utf8');
        this.buf = this.buf.subarray(nl + 1);
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          throw new FrameError('a frame header is not JSON');
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          throw new FrameError('a frame header is not an object');
        return parsed as FrameHeader;
      }
      searched = this.buf.length;
      if (this.buf.length > this.maxHeaderBytes) throw new FrameError('a frame header is too long');
      if (!(await this.fill())) {
        if (this.buf.length) throw new FrameError('the stream ended inside a frame header');
        return undefined;
      }
    }
  }

  /** Exactly `bytes` bytes of payload, in chunks. */
  async *payload(bytes: number): AsyncGenerator<Buffer> {
    let left = bytes;
    while (left > 0) {
      if (!this.buf.length && !(await this.fill())) throw new FrameError('the stream ended inside a file');
      const take = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(take.length);
      left -= take.length;
      yield take;
    }
  }
}

async function write(out: Writable, chunk: Buffer | string): Promise<void> {
  if (!out.write(chunk)) await Promise.race([once(out, 'drain'), once(out, 'close')]);
}

export async function writeHeader(out: Writable, header: FrameHeader): Promise<void> {
  await write(out, `${JSON.stringify(header)}\n`);
}

/** A header with `bytes` set to the file's size, then exactly that many bytes of it (zeros if it shrank). */
export async function writeFileFrame(out: Writable, header: FrameHeader, file: string): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    await writeHeader(out, { ...header, bytes: size });
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024);
    while (sent < size) {
      const want = Math.min(chunk.length, size - sent);
      const { bytesRead } = await handle.read(chunk, 0, want, sent);
      if (bytesRead === 0) chunk.fill(0, 0, want);
      const n = bytesRead || want;
      await write(out, Buffer.from(chunk.subarray(0, n)));
      sent += n;
    }
    return size;
  } finally {
    await handle.close();
  }
}
