// Files a client names when it sends a message over POST /api/chat: only files already stored under
// DATA_DIR/files (uploads) can be referenced, by their path relative to that folder, so a request cannot make the
// server read anything else.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../config';
import type { ContentItem } from '../llm/schema';

export function uploadsDir(): string {
  return path.join(loadConfig().dataDir, 'files');
}

export class AttachmentError extends Error {
  override name = 'AttachmentError';
}

/** The file content items for `refs` (absolute paths), or an AttachmentError naming the first bad one. */
export async function attachmentItems(refs: unknown): Promise<ContentItem[]> {
  if (!Array.isArray(refs) || !refs.every((r) => typeof r === 'string' && r.trim()))
    throw new AttachmentError('"files" must be a list of file names stored under the data folder\'s files/.');
  const root = uploadsDir();
  const items: ContentItem[] = [];
  for (const ref of refs as string[]) {
    const file = path.resolve(root, ref);
    if (!file.startsWith(root + path.sep) || /[\u0000-\u001f]/.test(ref))
      throw new AttachmentError(`"${ref}" is not a file name inside the uploads folder.`);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new AttachmentError(`"${ref}" has not been uploaded.`);
    items.push({ file });
  }
  return items;
}
