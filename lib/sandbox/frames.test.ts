import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FrameReader, writeFileFrame } from './frames';

const from = (...chunks: (string | Buffer)[]) =>
  new FrameReader(Readable.from(chunks.map((c) => Buffer.from(c))), 1024);

async function collect(it: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of it) parts.push(c);
  return Buffer.concat(parts).toString();
}

describe('frames', () => {
  it('reads headers and exact payloads across chunk boundaries', async () => {
    const r = from('{"t":"file","by', 'tes":5}\nhel', 'lo{"t":"result"}\n');
    expect(await r.header()).toEqual({ t: 'file', bytes: 5 });
    expect(await collect(r.payload(5))).toBe('hello');
    expect(await r.header()).toEqual({ t: 'result' });
    expect(await r.header()).toBeUndefined();
  });

  it('refuses what is not a frame: not JSON, not an object, too long, cut short', async () => {
    await expect(from('nope\n').header()).rejects.toThrow('not JSON');
    await expect(from('[1]\n').header()).rejects.toThrow('not an object');
    await expect(from('{"a":"' + 'x'.repeat(2000)).header()).rejects.toThrow('too long');
    await expect(from('{"t":').header()).rejects.toThrow('inside a frame header');
    const r = from('{"t":"file"}\nab');
    await r.header();
    await expect(collect(r.payload(5))).rejects.toThrow('inside a file');
  });

  it("writes a file frame with the file's size, which a reader reads back whole", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'frames-'));
    const file = path.join(dir, 'data.bin');
    writeFileSync(file, Buffer.alloc(200_000, 7));
    const pipe = new PassThrough();
    const reader = new FrameReader(pipe, 1024);
    const written = writeFileFrame(pipe, { t: 'put', name: 'data.bin' }, file).then(() => pipe.end());
    expect(await reader.header()).toEqual({ t: 'put', name: 'data.bin', bytes: 200_000 });
    const body = await collect(reader.payload(200_000));
    await written;
    expect(body).toBe(Buffer.alloc(200_000, 7).toString());
    expect(await reader.header()).toBeUndefined();
  });
});
