// Upload bytes kept by content hash under DATA_DIR/files/<sha256>. The body is streamed to a temporary file while
// hashing, and the size limit is enforced as bytes arrive, so an oversize upload never fills the disk or memory.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { filesDir, storedFilePath } from './file-ref';
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
  await mkdir(incoming, { recursive: true });
  const tmp = path.join(incoming, randomUUID());
  const out = createWriteStream(tmp);
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > opts.maxBytes) {
        throw new DocumentError(
          `${opts.name} is larger than the ${formatBytes(opts.maxBytes)} limit per file.`,
          'too-large',
        );
      }
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    const digest = hash.digest('hex');
    const target = storedFilePath(opts.dataDir, digest);
    // The same bytes uploaded before: keep the stored copy.
    if (await exists(target)) await rm(tmp, { force: true });
    else await rename(tmp, target);
    return { hash: digest, size };
  } catch (e) {
    out.destroy();
    await rm(tmp, { force: true });
    throw e;
  }
}

export async function deleteStoredFile(dataDir: string, hash: string): Promise<void> {
  await rm(storedFilePath(dataDir, hash), { force: true });
  await rm(path.join(dataDir, 'parsed', `${hash}.json`), { force: true });
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
