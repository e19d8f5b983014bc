// Between a blob store and local files: a blob downloaded into a file (written beside it, then renamed over it) and
// a file stored as a blob. With the local store a file already at its key's place is not copied onto itself.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { BlobInfo, BlobStore } from './types';

/** Writes the blob under `key` to `file`; undefined (and `file` untouched) when there is no such blob. */
export async function downloadTo(store: BlobStore, key: string, file: string): Promise<BlobInfo | undefined> {
  const target = path.resolve(file);
  if (store.localPath?.(key) === target) return store.head(key);
  const blob = await store.get(key);
  if (!blob) return undefined;
  await mkdir(path.dirname(target), { recursive: true });
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.get-${randomBytes(6).toString('hex')}`);
  try {
    await pipeline(blob.body, createWriteStream(temp, { flags: 'wx' }));
    await rename(temp, target);
  } catch (e) {
    blob.body.destroy();
    await rm(temp, { force: true });
    throw e;
  }
  return { key, size: blob.size, etag: '' };
}

/** Stores the regular file `file` under `key` (streamed); its etag in the store. */
export async function uploadFrom(store: BlobStore, key: string, file: string): Promise<{ etag: string }> {
  const source = path.resolve(file);
  if (store.localPath?.(key) === source) {
    const info = await store.head(key);
    if (info) return { etag: info.etag };
  }
  const info = await lstat(source);
  return store.put(key, createReadStream(source), info.size);
}
