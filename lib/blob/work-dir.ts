// A tool's work directory kept in a shared blob store (S3 mode), so a conversation's files follow it to whichever
// instance runs its next tool call, and any instance can serve what a tool wrote. Sandboxes need a local directory,
// so the store holds the truth between calls and the local directory is a working copy:
//   before a call: every blob under the directory's prefix that is not what this process last synced is
//     downloaded over the local file (new and changed files; nothing local is deleted);
//   after the call: every file the call wrote or changed is uploaded, every file it deleted is deleted.
// One run per conversation goes at a time, so two calls never write one directory at once; between runs the last
// call to finish wins, file by file.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { uploadFrom, downloadTo } from './files';
import { LocalBlobStore } from './local';
import type { BlobInfo, BlobStore } from './types';

/** What this process last synced for a key: the local file's etag and the store's. */
const synced = new Map<string, { local: string; remote: string }>();
const MAX_SYNCED = 50_000;

/** A local directory paired with its folder in the store. */
export interface SharedDir {
  store: BlobStore;
  /** The folder's key prefix (ends in "/"). */
  prefix: string;
  dir: string;
}

/** The local files under `dir`: relative name → etag (size and mtime). */
export async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = await new LocalBlobStore(dir).list('');
  return new Map(files.map((f) => [f.key, f.etag]));
}

async function localEtag(file: string): Promise<string | undefined> {
  const info = await lstat(file).catch(() => undefined);
  return info?.isFile() ? `${info.size}:${info.mtimeMs}` : undefined;
}

function remember(key: string, local: string | undefined, remote: string): void {
  if (synced.size >= MAX_SYNCED) synced.clear(); // forgetting only costs a download
  if (local) synced.set(key, { local, remote });
}

/** Downloads the store's new and changed files into the directory; returns how many came. */
export async function pullDir({ store, prefix, dir }: SharedDir): Promise<number> {
  const local = new LocalBlobStore(dir);
  let pulled = 0;
  for (const blob of await store.list(prefix)) {
    const name = blob.key.slice(prefix.length);
    const file = local.localPath(name); // throws on a key that is not a plain path
    const last = synced.get(blob.key);
    if (last && last.remote === blob.etag && last.local === (await localEtag(file))) continue;
    await downloadTo(store, blob.key, file);
    remember(blob.key, await localEtag(file), blob.etag);
    pulled++;
  }
  return pulled;
}

/** Uploads what changed between two snapshots of the directory and deletes what went. */
export async function pushChanges(
  { store, prefix, dir }: SharedDir,
  before: Map<string, string>,
  after: Map<string, string>,
): Promise<BlobInfo[]> {
  const pushed: BlobInfo[] = [];
  for (const [name, etag] of after) {
    if (before.get(name) === etag) continue;
    const key = prefix + name;
    const { etag: remote } = await uploadFrom(store, key, path.join(dir, ...name.split('/')));
    remember(key, etag, remote);
    pushed.push({ key, size: Number(etag.split(':')[0]), etag: remote });
  }
  for (const name of before.keys())
    if (!after.has(name)) {
      await store.delete(prefix + name);
      synced.delete(prefix + name);
    }
  return pushed;
}
