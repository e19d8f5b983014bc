// The page's URL of an image kept for a conversation by content hash: GET /api/images/<conversationId>/<sha256>.
// One shape for an uploaded image and for an image a tool returned (lib/documents/tool-images.ts); the route
// serves either to the conversation's owner only. Pure, for the page and the server alike.
const URL_PATH = /^\/api\/images\/([^/?#]+)\/([0-9a-f]{64})$/;

export function conversationImageUrl(conversationId: string, hash: string): string {
  return `/api/images/${encodeURIComponent(conversationId)}/${hash}`;
}

/** The conversation and hash of such a URL; undefined for any other value. */
export function parseConversationImageUrl(url: string): { conversationId: string; hash: string } | undefined {
  const m = URL_PATH.exec(url);
  if (!m) return undefined;
  try {
    return { conversationId: decodeURIComponent(m[1]!), hash: m[2]! };
  } catch {
    return undefined;
  }
}
