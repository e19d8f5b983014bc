// Files a client names when it sends a message over POST /api/chat: only its own uploads, by the reference POST
// /api/files returned (`files/<sha256>/<name>`), so a request cannot make the server read anything else, nor attach
// (or learn of) bytes another user uploaded: a reference that is not the sender's reads exactly as one never
// uploaded.
import { readFile } from 'node:fs/promises';
import { readHead, uploadedFile } from '../documents/storage';
import { parseFileRef } from '../documents/file-ref';
import { checkImage, type ImageLimits } from '../documents/image';
import { sniffImage } from '../documents/image-kind';
import { DocumentError } from '../documents/types';
import type { ContentItem } from '../llm/schema';
import type { OwnerScope } from '../store/owner';
import type { DocumentStore } from '../store/types';
import { isErrorNamed } from '../protocol/errors';

export class AttachmentError extends Error {
  override name = 'AttachmentError';
  constructor(
    message: string,
    /** 400 for a malformed list, 404 for a reference that is not one of the sender's uploads. */
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
  }
}

/** The content items for `refs` (an image as an image item, checked as an upload is), or an AttachmentError naming
 *  the first bad one. */
export async function attachmentItems(
  refs: unknown,
  store: Pick<DocumentStore, 'ownsUpload'>,
  owner: OwnerScope,
  dataDir: string,
  limits: ImageLimits,
): Promise<ContentItem[]> {
  if (!Array.isArray(refs) || !refs.every((r) => typeof r === 'string' && r.trim()))
    throw new AttachmentError('"files" must be a list of upload references ("ref" in the answer of POST /api/files).');
  const items: ContentItem[] = [];
  for (const ref of refs as string[]) {
    const parsed = parseFileRef(ref);
    if (!parsed)
      throw new AttachmentError(`"${ref}" is not an upload reference (files/<sha256>/<name>, from POST /api/files).`);
    const file = (await store.ownsUpload(owner, parsed.hash)) ? await uploadedFile(dataDir, parsed.hash) : undefined;
    if (!file) throw new AttachmentError(`"${ref}" is not one of your uploads.`, 404);
    if (!sniffImage(await readHead(file))) {
      items.push({ file: ref });
      continue;
    }
    try {
      await checkImage(await readFile(file), parsed.name, limits);
    } catch (e) {
      // The image's own problem (its format, size, pixels) is the sender's to fix; anything else is a fault.
      if (!isErrorNamed<DocumentError>(e, 'DocumentError')) throw e;
      throw new AttachmentError(e.message);
    }
    items.push({ image: ref });
  }
  return items;
}
