// Sending a message carries the conversation's uploaded documents as file content items (images as image items),
// each once: the ready documents that no earlier message of the history carries yet (as Qwen-Agent, tools then see every file of the
// conversation, and the model is told of them by lib/llm/upload-info).
import { collectFileRefs } from '../llm/upload-info';
import type { ContentItem, Message } from '../llm/schema';
import { isImageKind } from '../documents/image-kind';
import type { OwnerScope } from '../store/owner';
import type { DocumentStore } from '../store/types';

export async function withNewDocuments(
  store: Pick<DocumentStore, 'listDocuments'>,
  owner: OwnerScope,
  conversationId: string,
  history: readonly Message[],
  content: string | ContentItem[],
): Promise<string | ContentItem[]> {
  const carried = new Set(collectFileRefs(history));
  const files = (await store.listDocuments(owner, conversationId))
    .filter((d) => d.state === 'ready' && !carried.has(d.ref))
    .map((d): ContentItem => (isImageKind(d.kind) ? { image: d.ref } : { file: d.ref }));
  if (!files.length) return content;
  const items: ContentItem[] = typeof content === 'string' ? [{ text: content }] : [...content];
  const present = new Set(items.map((i) => i.file ?? i.image).filter(Boolean));
  return [...items, ...files.filter((f) => !present.has(f.file ?? f.image))];
}
