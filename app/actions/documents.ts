'use server';
// Server actions for uploads (wiring only). The bytes themselves go to POST /api/files, which reports progress.
import type { ActionResult } from '@/lib/chat/page';
import { appContext } from '@/lib/server/context';
import type { DocumentPageView } from '@/lib/uploads/service';
import { failure } from './action-error';
import { guardAction } from './guard';
import type { ConversationSettings } from '@/lib/store/types';

/** The per-file size limit, so the page can refuse an oversize file before sending it. */
export async function uploadLimit(): Promise<number> {
  await guardAction('uploadLimit');
  return (await appContext()).config.documents.uploadMaxBytes;
}

/** A conversation for files attached before the first message, with the settings picked for the new chat. */
export async function startConversation(settings?: Partial<ConversationSettings>): Promise<string> {
  const me = await guardAction('startConversation');
  return (await (await appContext()).store.createConversation(me.owner, { settings })).id;
}

/** A page of one of the user's documents, by content hash (what a citation names), for the citation viewer. */
export async function documentPage(hash: string, page: number): Promise<ActionResult<DocumentPageView>> {
  const me = await guardAction('documentPage');
  try {
    return { ok: true, value: await (await appContext()).uploads.page(me.owner, String(hash), Number(page)) };
  } catch (e) {
    return failure(e);
  }
}
