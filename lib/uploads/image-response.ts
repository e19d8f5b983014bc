// GET /api/images/<conversationId>/<sha256>: the bytes of an image uploaded to that conversation, typed by what the
// upload check found in them (never by the name), never rendered as a page of our origin. A hash that belongs to
// another conversation, or to a file that is not an accepted image, is not found; so is any image of a conversation
// that is not the asker's (the store lists only the owner's documents).
import { readFile } from 'node:fs/promises';
import { uploadedFile } from '../documents/storage';
import { imageMime, isImageKind } from '../documents/image-kind';
import type { OwnerScope } from '../store/owner';
import type { DocumentStore } from '../store/types';

function notFound(): Response {
  return Response.json({ error: { message: 'No such image in this conversation.' } }, { status: 404 });
}

export async function uploadedImageResponse(
  store: Pick<DocumentStore, 'listDocuments'>,
  owner: OwnerScope,
  dataDir: string,
  conversationId: string,
  hash: string,
): Promise<Response> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return notFound();
  const doc = (await store.listDocuments(owner, conversationId)).find(
    (d) => d.hash === hash && d.state === 'ready' && isImageKind(d.kind),
  );
  if (!doc || !isImageKind(doc.kind)) return notFound();
  const file = await uploadedFile(dataDir, hash);
  const bytes = file && (await readFile(file).catch(() => undefined));
  if (!bytes) return notFound();
  const ascii = doc.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': imageMime(doc.kind),
      'content-length': String(bytes.byteLength),
      'content-disposition': `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(doc.name)}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      // The same hash is the same bytes: the page may keep it while the conversation lasts.
      'cache-control': 'private, max-age=86400',
    },
  });
}
