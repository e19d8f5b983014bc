// The work-directory rule with S3 (work-dir.ts), on a real S3-compatible server: before a call the bucket's new and
// changed files come down (over a local change too: the bucket holds the truth between calls), unchanged ones are
// not fetched again, and nothing local is deleted; after it what the call wrote goes up and what it deleted goes.
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startS3, type TestS3 } from '../../test/support/s3';
import { S3BlobStore } from './s3';
import { BlobError } from './types';
import { pullDir, pushChanges, snapshot, type SharedDir } from './work-dir';

let s3: TestS3;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function shared(prefix: string): Promise<SharedDir> {
  const dir = await mkdtemp(path.join(tmpdir(), 'work-dir-'));
  dirs.push(dir);
  return { store: new S3BlobStore(loadConfig(s3.env).s3!), prefix, dir };
}

const put = (w: SharedDir, name: string, text: string) =>
  w.store.put(w.prefix + name, Readable.from([Buffer.from(text)]), Buffer.byteLength(text));

describe('a work directory kept in a bucket', () => {
  it('pulls new and changed files, not unchanged ones, and the bucket wins over a local change', async () => {
    const w = await shared('work/c1/code_interpreter/');
    await put(w, 'a.txt', 'one');
    await put(w, 'out/b.csv', 'x,y');
    expect(await pullDir(w)).toBe(2);
    expect(await readFile(path.join(w.dir, 'out', 'b.csv'), 'utf8')).toBe('x,y');
    expect(await pullDir(w)).toBe(0); // nothing changed on either side

    await put(w, 'a.txt', 'two'); // another instance wrote it
    await writeFile(path.join(w.dir, 'out', 'b.csv'), 'local edit'); // this copy drifted
    await writeFile(path.join(w.dir, 'only-here.txt'), 'kept');
    expect(await pullDir(w)).toBe(2);
    expect(await readFile(path.join(w.dir, 'a.txt'), 'utf8')).toBe('two');
    expect(await readFile(path.join(w.dir, 'out', 'b.csv'), 'utf8')).toBe('x,y');
    expect(await readFile(path.join(w.dir, 'only-here.txt'), 'utf8')).toBe('kept'); // nothing local is deleted
  });

  it('pushes what a call wrote or changed, deletes what it deleted, and does not pull its own writes back', async () => {
    const w = await shared('work/c2/code_interpreter/');
    await put(w, 'old.txt', 'old');
    await put(w, 'gone.txt', 'gone');
    await pullDir(w);
    const before = await snapshot(w.dir);
    await writeFile(path.join(w.dir, 'new.png'), 'png');
    await writeFile(path.join(w.dir, 'old.txt'), 'changed');
    await utimes(path.join(w.dir, 'old.txt'), new Date(), new Date(Date.now() + 1000));
    await rm(path.join(w.dir, 'gone.txt'));
    const pushed = await pushChanges(w, before, await snapshot(w.dir));
    expect(pushed.map((b) => b.key)).toEqual([`${w.prefix}new.png`, `${w.prefix}old.txt`]);
    expect((await w.store.list(w.prefix)).map((b) => [b.key.slice(w.prefix.length), b.size])).toEqual([
      ['new.png', 3],
      ['old.txt', 7],
    ]);
    const mtime = (await stat(path.join(w.dir, 'new.png'))).mtimeMs;
    expect(await pullDir(w)).toBe(0);
    expect((await stat(path.join(w.dir, 'new.png'))).mtimeMs).toBe(mtime);
  });

  it('refuses a bucket key that is not a plain path, writing nothing', async () => {
    const w = await shared('work/c3/code_interpreter/');
    // Our store never makes such a key; another client of the bucket could. (A key with ".." parts cannot be
    // tried here: the server normalises the request path.)
    const raw = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await raw.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `${w.prefix}a\\b`, Body: 'x' }));
    raw.destroy();
    await expect(pullDir(w)).rejects.toThrow(BlobError);
    expect(await readdir(w.dir)).toEqual([]);
  });
});
