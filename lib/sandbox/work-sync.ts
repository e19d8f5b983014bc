// The host's copy of a CPython sandbox's /workspace: files the kernel reports written are stored in the work
// directory (what the artifacts route serves), files it reports deleted are removed. Names come from inside the
// sandbox, so each is checked and no path the host follows can lead out of the work directory.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const MAX_NAME_DEPTH = 7;

/** The absolute path of a sandbox-relative name inside workDir, or undefined when the name is not plain. */
export function hostPathOf(workDir: string, name: string): string | undefined {
  const parts = name.split('/');
  if (!name || parts.length > MAX_NAME_DEPTH || name.length > 4096) return undefined;
  if (parts.some((p) => p === '' || p === '.' || p === '..' || /[\\\0]/.test(p))) return undefined;
  const target = path.join(workDir, ...parts);
  return target.startsWith(workDir + path.sep) ? target : undefined;
}

/** Creates the parent directories of `target` inside workDir; false when one exists as anything but a directory. */
async function ensureParents(workDir: string, target: string): Promise<boolean> {
  let dir = workDir;
  for (const part of path.relative(workDir, path.dirname(target)).split(path.sep).filter(Boolean)) {
    dir = path.join(dir, part);
    const info = await lstat(dir).catch(() => undefined);
    if (!info) await mkdir(dir);
    else if (!info.isDirectory()) return false; // a symlink or a file in the way: never followed
  }
  return true;
}

/** Reads a payload off the pipe without keeping it. */
export async function drain(chunks: AsyncIterable<Buffer>): Promise<void> {
  for await (const _ of chunks) {
    // the payload must be read off the pipe even when it is not kept
  }
}

/**
 * Stores a file the kernel sent (written beside its target, then renamed over it). False when the name is refused
 * (the payload is read and dropped); throws when the host cannot write it (the payload is then not fully read).
 */
export async function receiveFile(workDir: string, name: string, chunks: AsyncIterable<Buffer>): Promise<boolean> {
  const target = hostPathOf(workDir, name);
  if (!target || !(await ensureParents(workDir, target))) {
    await drain(chunks);
    return false;
  }
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.sync-${randomBytes(6).toString('hex')}`);
  try {
    await pipeline(Readable.from(chunks), createWriteStream(temp, { flags: 'wx', mode: 0o644 }));
    if ((await lstat(target).catch(() => undefined))?.isDirectory()) {
      await rm(temp, { force: true });
      return false;
    }
    await rename(temp, target); // replaces a file (or a symlink) without following it
    return true;
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Removes a file the kernel deleted; anything but a regular file is left alone. */
export async function removeFile(workDir: string, name: string): Promise<void> {
  const target = hostPathOf(workDir, name);
  if (!target) return;
  const info = await lstat(target).catch(() => undefined);
  if (info?.isFile()) await unlink(target).catch(() => undefined);
}
