// What a page in view asks every few seconds to follow its owner's changes made elsewhere (another window, another
// device, the API): a short digest of the owner's conversation list. It changes when a conversation is made,
// renamed or deleted, or moves up (a message or an answer started in it), and with nothing else, so the page reads
// the list and the open conversation again only when there is something new to show.
import { createHash } from 'node:crypto';
import type { ConversationSummary } from '../store/types';

export function listVersion(list: readonly Pick<ConversationSummary, 'id' | 'title' | 'updatedAt'>[]): string {
  const hash = createHash('sha256');
  for (const c of list) hash.update(`${JSON.stringify([c.id, c.updatedAt, c.title])}\n`);
  return hash.digest('base64url').slice(0, 22);
}
