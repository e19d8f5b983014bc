// GET /api/images/<conversationId>/<sha256>: the bytes of an image uploaded to that conversation, typed by what the
// upload check found in them (never by the name), never rendered as a page of our origin. A hash that belongs to
// another conversation, or to a file that is not an accepted image, is not found; so is any image of a conversation
// that is not the asker's (the store lists only the owner's documents). The same URL serves an image a tool returned
// in the conversation (lib/documents/tool-images.ts), to the conversation's owner only.
import { readFile } from 'node:fs/promises';
import { uploadedFile } from '../documents/storage';
import { imageMime, isImageKind, type ImageKind } from '../documents/image-kind';
import { readToolImage } from '../documents/tool-images';
import type { OwnerScope } from '../store/owner';
import type { ChatStore, DocumentStore } from '../store/types';

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
  return imageResponse(bytes, doc.kind, doc.name);
}

/** An image a tool returned in a conversation of the asker's; 404 for anyone else, as for no such image. */
export async function toolImageResponse(
  store: Pick<ChatStore, 'getConversation'>,
  owner: OwnerScope,
  dataDir: string,
  conversationId: string,
  hash: string,
): Promise<Response> {
  if (!/^[0-9a-f]{64}$/.test(hash) || !(await store.getConversation(owner, conversationId))) return notFound();
  const image = await readToolImage(dataDir, conversationId, hash);
  if (!image) return notFound();
  return imageResponse(image.bytes, image.kind, `image-${hash.slice(0, 12)}.${image.kind.replace('jpeg', 'jpg')}`);
}

function imageResponse(bytes: Buffer, kind: ImageKind, name: string): Response {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': imageMime(kind),
      'content-length': String(bytes.byteLength),
      'content-disposition': `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      // The same hash is the same bytes: the page may keep it while the conversation lasts.
      'cache-control': 'private, max-age=86400',
    },
  });
}
