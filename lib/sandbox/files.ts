// Files in a code work directory: what a run wrote (snapshot before and after), and how they are typed and linked.
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';

const MAX_ENTRIES = 2_000;
const MAX_DEPTH = 6;
export const MAX_LISTED_FILES = 20;

/** A file's signature in a snapshot: it changed when this changed. */
export function signatureOf(info: { size: number; mtimeMs: number }): string {
  return `${info.size}:${info.mtimeMs}`;
}

/** Relative path → "size:mtime" for every regular file under dir (bounded, symlinks not followed). */
export async function snapshotDir(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(abs: string, rel: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH || out.size >= MAX_ENTRIES) return;
    let entries;
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (out.size >= MAX_ENTRIES) return;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const childAbs = path.join(abs, entry.name);
      if (entry.isDirectory()) await walk(childAbs, childRel, depth + 1);
      else if (entry.isFile()) {
        const info = await lstat(childAbs).catch(() => undefined);
        if (info) out.set(childRel, signatureOf(info));
      }
    }
  }
  await walk(dir, '', 0);
  return out;
}

export interface WrittenFile {
  /** Path relative to the work directory, with forward slashes. */
  name: string;
  bytes: number;
}

/** Files that are new or changed between two snapshots, sorted by name, at most MAX_LISTED_FILES. */
export function writtenFiles(before: Map<string, string>, after: Map<string, string>): WrittenFile[] {
  const changed: WrittenFile[] = [];
  for (const [name, sig] of after) {
    if (before.get(name) !== sig) changed.push({ name, bytes: Number(sig.split(':')[0]) });
  }
  return changed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, MAX_LISTED_FILES);
}

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  py: 'text/x-python; charset=utf-8',
  json: 'application/json',
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

export function mimeOf(name: string): string {
  return MIME[path.extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream';
}

/** Raster images the page may show inline (SVG is excluded: it can carry scripts). */
export function isInlineImage(mime: string): boolean {
  return /^image\/(png|jpeg|gif|webp)$/.test(mime);
}

/**
 * The absolute path of `segments` inside `root`, or undefined when it would leave it ('..', absolute parts,
 * NUL bytes, or a symlink pointing outside). Used where a tool's file is read on this instance (its images sent to
 * the model, right after the call that wrote them).
 */
export async function resolveInside(root: string, segments: readonly string[]): Promise<string | undefined> {
  if (segments.length === 0) return undefined;
  if (segments.some((s) => s === '' || s === '.' || s === '..' || /[\\/\0]/.test(s))) return undefined;
  const base = path.resolve(root);
  const target = path.resolve(base, ...segments);
  if (!target.startsWith(base + path.sep)) return undefined;
  try {
    const [realBase, realTarget] = await Promise.all([realpath(base), realpath(target)]);
    if (!realTarget.startsWith(realBase + path.sep)) return undefined;
    return realTarget;
  } catch {
    return undefined;
  }
}

/** The page's URL for a file of a conversation's code work directory (served by app/api/artifacts). */
export function artifactUrl(conversationId: string, name: string): string {
  const parts = [conversationId, ...name.split('/')].map(encodeURIComponent);
  return `/api/artifacts/${parts.join('/')}`;
}
