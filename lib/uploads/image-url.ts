// Where the page loads an image a message carries: GET /api/images/<conversationId>/<sha256>. Pure, for the page
// and the server alike; the route (lib/uploads/image-response.ts) serves only images uploaded to that conversation
// (or returned there by a tool).
import { conversationImageUrl } from '../documents/image-url';

const REF_HASH = /^files\/([0-9a-f]{64})\//;

/** The URL of the uploaded image `ref` (`files/<sha256>/<name>`) of a conversation; undefined for any other value
 *  (an http URL a client put in a message is not loaded by the page). */
export function uploadedImageUrl(conversationId: string, ref: string): string | undefined {
  const hash = REF_HASH.exec(ref)?.[1];
  return hash ? conversationImageUrl(conversationId, hash) : undefined;
}
