// Tool work directories (DATA_DIR/work/<conversation>/<tool>) in the blob store. With the local store DATA_DIR is
// the store, nothing to sync. With S3 the bucket's work/<conversation>/<tool>/ folder holds the directory between
// calls (lib/blob/work-dir.ts says the rule): pulled before a file-aware tool's call, its changes pushed after.
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { dataStore } from '../lib/blob';
import type { SharedDir } from '../lib/blob/work-dir';
import { safeFileName } from '../lib/documents/file-ref';

/** The work directories of a conversation, under DATA_DIR. */
export function conversationWorkDir(dataDir: string, conversationId: string): string {
  return path.join(path.resolve(dataDir), 'work', safeFileName(conversationId));
}

/** The work directory paired with its bucket folder, when `workDir` is a default one and the store is a bucket. */
export function sharedWorkDir(dataDir: string, workDir: string): SharedDir | undefined {
  const store = dataStore(dataDir);
  if (store.localPath) return undefined;
  const rel = path.relative(path.join(path.resolve(dataDir), 'work'), path.resolve(workDir));
  const parts = rel.split(path.sep);
  if (rel.startsWith('..') || path.isAbsolute(rel) || parts.length !== 2) return undefined;
  return { store, prefix: `work/${parts.join('/')}/`, dir: path.resolve(workDir) };
}

/** The files of a conversation's tools, in this DATA_DIR and in the bucket. */
export async function removeWorkFiles(dataDir: string, conversationId: string): Promise<void> {
  await rm(conversationWorkDir(dataDir, conversationId), { recursive: true, force: true });
  const store = dataStore(dataDir);
  if (store.localPath) return;
  const prefix = `work/${safeFileName(conversationId)}/`;
  for (const blob of await store.list(prefix)) await store.delete(blob.key);
}
