// Upload bytes kept by content hash under DATA_DIR/files/<sha256>. The body is streamed to a temporary file while
// hashing, and the size limit is enforced as bytes arrive, so an oversize upload never fills the disk or memory.
// With S3 set (lib/blob) the bucket keeps them (files/<sha256>, and their parse parsed/<sha256>.json) and
// DATA_DIR/files is this instance's copy: stored there on upload, downloaded from the bucket the first time an
// instance without it reads them. A hash names its bytes for good, so a copy is never stale.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { dataStore } from '../blob';
import { downloadTo, uploadFrom } from '../blob/files';
import { filesDir, parsedCacheDir, storedFilePath } from './file-ref';
import { formatBytes } from './limits';
import { DocumentError } from './types';

export interface SavedFile {
  hash: string;
  size: number;
}

export async function saveUpload(
  body: AsyncIterable<Uint8Array>,
  opts: { dataDir: string; maxBytes: number; name: string },
): Promise<SavedFile> {
  const incoming = path.join(filesDir(opts.dataDir), '.incoming');
  const tmp = path.join(incoming, randomUUID());
  const hash = createHash('sha256');
  let size = 0;
  async function* checked(): AsyncGenerator<Uint8Array> {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > opts.maxBytes) {
        throw new DocumentError(
          `${opts.name} is larger than the ${formatBytes(opts.maxBytes)} limit per file.`,
          'too-large',
        );
      }
      hash.update(chunk);
      yield chunk;
    }
  }
  try {
    await mkdir(incoming, { recursive: true });
    // A failed write (a full disk) ends the copy at once and stops reading the body; so does an oversize body.
    await pipeline(checked, createWriteStream(tmp));
    const digest = hash.digest('hex');
    const target = storedFilePath(opts.dataDir, digest);
    // The same bytes uploaded before: keep the stored copy.
    if (await exists(target)) await rm(tmp, { force: true });
    else await rename(tmp, target);
    const blobs = dataStore(opts.dataDir);
    if (!(await blobs.head(uploadKey(digest)))) await uploadFrom(blobs, uploadKey(digest), target);
    return { hash: digest, size };
  } catch (e) {
    await rm(tmp, { force: true });
    throw diskFull(e, opts.name) ?? e;
  }
}

/** How long a temporary file of an upload or of a parse may go unwritten before it counts as left by a process that
 *  died mid-write (kill -9, a lost machine): longer than a request may last (Node's server ends one after 5 minutes),
 *  so a live upload, of this instance or another sharing DATA_DIR, is never taken. */
export const ABANDONED_AFTER_MS = 15 * 60_000;

/** Deletes what writes cut short by a killed process left behind: upload bytes in files/.incoming and parse caches
 *  being written (parsed/*.tmp) that nothing has written to for `idleMs`. Resolves with how many went. */
export async function sweepAbandoned(dataDir: string, idleMs = ABANDONED_AFTER_MS): Promise<number> {
  const before = Date.now() - idleMs;
  const places: [string, (name: string) => boolean][] = [
    [path.join(filesDir(dataDir), '.incoming'), () => true],
    [parsedCacheDir(dataDir), (name) => name.endsWith('.tmp')],
  ];
  let swept = 0;
  for (const [dir, left] of places) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter(left)) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile() || info.mtimeMs > before) continue;
      await rm(file, { force: true });
      swept++;
    }
  }
  return swept;
}

/** sweepAbandoned now, then every hour (a timer that keeps no process alive): what a killed process left goes within
 *  an hour and ABANDONED_AFTER_MS of its death. Errors are only logged: nothing depends on the sweep. */
export function keepSweepingAbandoned(dataDir: string): void {
  const sweep = () =>
    void sweepAbandoned(dataDir).catch((e: unknown) =>
      console.error(`[files] could not delete what interrupted writes left: ${e instanceof Error ? e.message : e}`),
    );
  sweep();
  setInterval(sweep, 60 * 60_000).unref();
}

/** A write refused for want of space (ENOSPC, or EDQUOT past a quota), as a DocumentError that says so. */
export function diskFull(e: unknown, name: string): DocumentError | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return undefined;
  return new DocumentError(
    `${name} could not be stored: the server's disk is full. Nothing was kept; try again once space is freed.`,
    'disk-full',
  );
}

const uploadKey = (hash: string) => `files/${hash}`;
const parseKey = (hash: string) => `parsed/${hash}.json`;
const parseFile = (dataDir: string, hash: string) => path.join(dataDir, 'parsed', `${hash}.json`);

/**
 * The local file holding an upload's bytes (DATA_DIR/files/<hash>), downloaded from the bucket with its parse
 * when this instance has no copy; undefined when the upload is nowhere.
 */
export async function uploadedFile(dataDir: string, hash: string): Promise<string | undefined> {
  const file = storedFilePath(dataDir, hash);
  if (await exists(file)) return file;
  const blobs = dataStore(dataDir);
  if (blobs.localPath) return undefined;
  if (!(await downloadTo(blobs, uploadKey(hash), file))) return undefined;
  if (!(await exists(parseFile(dataDir, hash)))) await downloadTo(blobs, parseKey(hash), parseFile(dataDir, hash));
  return file;
}

/** Puts the upload's parse (DATA_DIR/parsed/<hash>.json, when the parser wrote one) in the bucket for the others. */
export async function keepParse(dataDir: string, hash: string): Promise<void> {
  const blobs = dataStore(dataDir);
  const file = parseFile(dataDir, hash);
  if (blobs.localPath || !(await exists(file)) || (await blobs.head(parseKey(hash)))) return;
  await uploadFrom(blobs, parseKey(hash), file);
}

export async function deleteStoredFile(dataDir: string, hash: string): Promise<void> {
  await rm(storedFilePath(dataDir, hash), { force: true });
  await rm(parseFile(dataDir, hash), { force: true });
  const blobs = dataStore(dataDir);
  if (blobs.localPath) return;
  await blobs.delete(uploadKey(hash));
  await blobs.delete(parseKey(hash));
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The first bytes of a stored file (enough to tell an image by its magic number). */
export async function readHead(file: string, length = 16): Promise<Uint8Array> {
  const handle = await open(file);
  try {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
