// Documents just work: the rule that decides whether a run is offered the document tools, without the user changing
// a setting. The service applies it to every run it starts (a replay keeps the tools of the run it replays); the
// settings panel shows its outcome. Browser-safe: types only, no Node.
import { isImageKind } from '../documents/image-kind';
import type { OwnerScope } from '../store/owner';
import type { ChatStore, ConversationSettings, StoredTurn } from '../store/types';

/** The tools a conversation with documents is offered (both file-aware: the documents are staged for them). */
export const DOCUMENT_TOOLS = ['retrieval', 'doc_parser'] as const;

/**
 * Why the document tools are, or are not, offered:
 * - `documents`: on because the conversation has documents (and they were not turned off);
 * - `assistant`: not added, the Assistant (or a MemoAssistant, an ArticleAgent) searches the documents itself before
 *   each answer (its knowledge base);
 * - `turned-off`: the user turned them off for this conversation (tools ticked by hand are still offered);
 * - `no-documents`: nothing to read yet; they come on with the first document.
 */
export type DocumentToolsReason = 'documents' | 'assistant' | 'turned-off' | 'no-documents';

/** The kinds that search (or read) the conversation's documents before each answer (the Assistant and its writing
 *  and note-keeping kinds, the doc-QA agents): the document tools are not added for them. */
const SEARCHES_ITSELF: readonly string[] = ['assistant', 'memo', 'article', 'basicdocqa', 'paralleldocqa'];

export function documentToolsRule(
  settings: Pick<ConversationSettings, 'agent' | 'tools' | 'documentTools'>,
  hasDocuments: boolean,
): { tools: string[]; reason: DocumentToolsReason } {
  const tools = [...settings.tools];
  if (SEARCHES_ITSELF.includes(settings.agent)) return { tools, reason: 'assistant' };
  if (settings.documentTools === 'off') return { tools, reason: 'turned-off' };
  if (!hasDocuments) return { tools, reason: 'no-documents' };
  for (const name of DOCUMENT_TOOLS) if (!tools.includes(name)) tools.push(name);
  return { tools, reason: 'documents' };
}

/** The settings a run uses: the conversation's, with the document tools the rule adds. */
export function withDocumentTools(settings: ConversationSettings, hasDocuments: boolean): ConversationSettings {
  return { ...settings, tools: documentToolsRule(settings, hasDocuments).tools };
}

/** A conversation has documents when an upload of it is not refused (ready, or still parsing: the message waits for
 *  it), or when one of its messages (`turns`, as the store lists them) carries a file (POST /api/chat's `files`). An image is no document: messages
 *  carry it to the model as an image, there is no text to search. */
export async function conversationHasDocuments(
  store: Pick<ChatStore, 'listDocuments'>,
  owner: OwnerScope,
  conversationId: string,
  turns: readonly { turn: StoredTurn }[],
): Promise<boolean> {
  if ((await store.listDocuments(owner, conversationId)).some((d) => d.state !== 'error' && !isImageKind(d.kind)))
    return true;
  return turns.some(({ turn }) => typeof turn.content !== 'string' && turn.content.some((item) => item.file));
}
