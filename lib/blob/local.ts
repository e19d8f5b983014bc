// The blob store as a local directory (DATA_DIR): a key is the file at that relative path. Writes go to a temporary
// name beside the target and are renamed over it. Only regular files reached without a symlink are read or listed,
// so a link a tool left in its work directory never leads anywhere else.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, exactly, checkPrefix, type BlobBody, type BlobInfo, type BlobStore } from './types';

/** Temporary files of put() in flight: never listed. */
const TEMP = /^\..*\.blob-[0-9a-f]{12}$/;

export class LocalBlobStore implements BlobStore {
  readonly kind = 'local';
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  localPath(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Readable, size: number): Promise<{ etag: string }> {
    const target = this.localPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(path.dirname(target), `.${path.basename(target)}.blob-${randomBytes(6).toString('hex')}`);
    try {
      await pipeline(exactly(key, body, size), createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, target);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
    return { etag: etagOf(await lstat(target)) };
  }

  async get(key: string): Promise<BlobBody | undefined> {
    const file = await this.regularFile(key);
    if (!file) return undefined;
    return { body: createReadStream(file.path), size: file.size };
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const file = await this.regularFile(key);
    return file && { key, size: file.size, etag: file.etag };
  }

  async delete(key: string): Promise<void> {
    const file = this.localPath(key);
    if ((await lstat(file).catch(() => undefined))?.isDirectory()) return;
    await rm(file, { force: true });
  }

  async list(prefix: string): Promise<BlobInfo[]> {
    checkPrefix(prefix);
    const out: BlobInfo[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const abs = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(abs, `${keyPrefix}${entry.name}/`);
        else if (entry.isFile() && !TEMP.test(entry.name)) {
          const info = await lstat(abs).catch(() => undefined);
          if (info?.isFile()) out.push({ key: keyPrefix + entry.name, size: info.size, etag: etagOf(info) });
        }
      }
    };
    const start = prefix ? this.localPath(prefix.slice(0, -1)) : this.root;
    if (await this.inside(start)) await walk(start, prefix);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The file of `key` when it is a regular file whose real path is exactly where the key says (no symlink). */
  private async regularFile(key: string): Promise<{ path: string; size: number; etag: string } | undefined> {
    const file = this.localPath(key);
    if (!(await this.inside(file))) return undefined;
    const info = await lstat(file).catch(() => undefined);
    return info?.isFile() ? { path: file, size: info.size, etag: etagOf(info) } : undefined;
  }

  /** Whether `abs` exists and its real path is itself under the root's real path (nothing on the way is a link). */
  private async inside(abs: string): Promise<boolean> {
    try {
      const [realRoot, real] = await Promise.all([realpath(this.root), realpath(abs)]);
      return real === path.join(realRoot, path.relative(this.root, abs));
    } catch {
      return false;
    }
  }
}

function etagOf(info: { size: number; mtimeMs: number }): string {
  return `${info.size}:${info.mtimeMs}`;
}
