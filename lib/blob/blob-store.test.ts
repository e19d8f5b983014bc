// The blob store contract, the same tests for both implementations: a local directory and an S3 bucket on a real
// S3-compatible server (s3rver on a loopback port, test/support/s3.ts), with and without S3_PREFIX.
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startS3, type TestS3 } from '../../test/support/s3';
import { LocalBlobStore } from './local';
import { S3BlobStore } from './s3';
import { BlobError, type BlobStore } from './types';

let s3: TestS3;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'blob-store-'));
  dirs.push(dir);
  return dir;
}

let run = 0;
const implementations: [string, () => Promise<BlobStore>][] = [
  ['a local directory', async () => new LocalBlobStore(await tempDir())],
  // Each test its own prefix in the one bucket: what S3_PREFIX is for.
  ['an S3 bucket', async () => new S3BlobStore(loadConfig({ ...s3.env, S3_PREFIX: `run-${++run}` }).s3!)],
];

function stream(...chunks: string[]): Readable {
  return Readable.from(chunks.map((c) => Buffer.from(c)));
}

describe.each(implementations)('the blob store as %s', (_name, make) => {
  it('puts a stream and gets it back as one, with its size and an etag that changes with the bytes', async () => {
    const store = await make();
    const first = await store.put('files/abc', stream('hello ', 'world'), 11);
    const got = await store.get('files/abc');
    expect(got?.size).toBe(11);
    expect(await text(got!.body)).toBe('hello world');
    const head = await store.head('files/abc');
    expect(head).toMatchObject({ key: 'files/abc', size: 11, etag: first.etag });
    await new Promise((r) => setTimeout(r, 5));
    const second = await store.put('files/abc', stream('bye'), 3);
    expect(second.etag).not.toBe(first.etag);
    expect(await text((await store.get('files/abc'))!.body)).toBe('bye');
  });

  it('answers undefined for a missing key, and deleting one is not an error', async () => {
    const store = await make();
    expect(await store.get('files/missing')).toBeUndefined();
    expect(await store.head('files/missing')).toBeUndefined();
    await store.delete('files/missing');
    await store.put('files/gone', stream('x'), 1);
    await store.delete('files/gone');
    expect(await store.head('files/gone')).toBeUndefined();
  });

  it('lists a folder at every depth, sorted, and nothing beside it', async () => {
    const store = await make();
    for (const key of ['work/c1/code/b.txt', 'work/c1/code/out/a.png', 'work/c10/code/x', 'files/h'])
      await store.put(key, stream(key), key.length);
    const listed = await store.list('work/c1/');
    expect(listed.map((b) => [b.key, b.size])).toEqual([
      ['work/c1/code/b.txt', 18],
      ['work/c1/code/out/a.png', 22],
    ]);
    expect(listed.every((b) => b.etag)).toBe(true);
    expect((await store.list('')).map((b) => b.key)).toEqual([
      'files/h',
      'work/c1/code/b.txt',
      'work/c1/code/out/a.png',
      'work/c10/code/x',
    ]);
    expect(await store.list('nothing/')).toEqual([]);
  });

  it('keeps names with spaces and non-ASCII letters', async () => {
    const store = await make();
    await store.put('work/c/code_interpreter/图表 1.png', stream('png'), 3);
    expect((await store.list('work/c/')).map((b) => b.key)).toEqual(['work/c/code_interpreter/图表 1.png']);
    expect(await text((await store.get('work/c/code_interpreter/图表 1.png'))!.body)).toBe('png');
  });

  it('refuses keys that are not plain relative paths, before anything is read or written', async () => {
    const store = await make();
    for (const bad of ['', '/etc/passwd', '../x', 'a/../b', 'a//b', 'a/./b', 'a\\b', 'a\0b'])
      await expect(store.get(bad), bad).rejects.toThrow(BlobError);
    await expect(store.put('../x', stream('x'), 1)).rejects.toThrow(BlobError);
    await expect(store.list('work')).rejects.toThrow(BlobError);
  });

  it('refuses a body shorter or longer than announced, saying so', async () => {
    const store = await make();
    await expect(store.put('files/short', stream('new'), 10)).rejects.toThrow(/3 bytes came where 10/);
    await expect(store.put('files/long', stream('new', 'er'), 3)).rejects.toThrow(/more than the 3 bytes/);
  });
});

describe('the local directory', () => {
  // (S3 itself keeps the old object when a put fails; s3rver stores the part that came, so this is not asked of it.)
  it('keeps what was there when a put fails', async () => {
    const store = new LocalBlobStore(await tempDir());
    await store.put('files/kept', stream('old'), 3);
    await expect(store.put('files/kept', stream('new'), 10)).rejects.toThrow(BlobError);
    expect(await text((await store.get('files/kept'))!.body)).toBe('old');
    expect(await store.list('')).toHaveLength(1); // no temporary file left
  });

  it('never follows a symlink, to a file or through a folder, and lists neither', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, 'secret'), 'secret');
    await mkdir(path.join(root, 'work', 'c'), { recursive: true });
    await symlink(path.join(outside, 'secret'), path.join(root, 'work', 'c', 'link'));
    await symlink(outside, path.join(root, 'work', 'c', 'dir'));
    const store = new LocalBlobStore(root);
    expect(await store.get('work/c/link')).toBeUndefined();
    expect(await store.get('work/c/dir/secret')).toBeUndefined();
    expect(await store.list('work/')).toEqual([]);
  });

  it('holds a key at the file of that path under the directory (the DATA_DIR layout)', async () => {
    const root = await tempDir();
    await new LocalBlobStore(root).put('files/abc', stream('hi'), 2);
    expect(new LocalBlobStore(root).localPath('files/abc')).toBe(path.join(root, 'files', 'abc'));
  });
});

describe('the S3 bucket', () => {
  it('says which bucket and key failed, never the credentials', async () => {
    const store = new S3BlobStore(
      loadConfig({ ...s3.env, S3_BUCKET: 'no-such-bucket', S3_SECRET_ACCESS_KEY: 'very-secret-key-123' }).s3!,
    );
    const error = await store.put('files/x', stream('x'), 1).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(BlobError);
    expect((error as Error).message).toContain('"no-such-bucket"');
    expect((error as Error).message).toContain('files/x');
    expect((error as Error).message).not.toContain('very-secret-key-123');
  });
});
