// Building blocks for rendering a history as plain chat messages: a mutable draft message whose content is a list of
// items (so images in user turns survive), turned back into a Message with string content when it is all text.
import type { ContentItem, Message, MessageContent } from '../schema';

export type DraftRole = 'system' | 'user' | 'assistant';

export interface Draft {
  role: DraftRole;
  items: ContentItem[];
  reasoning_content?: Message['reasoning_content'];
}

export function itemsOf(content: MessageContent | undefined): ContentItem[] {
  if (content === undefined || content === '') return [];
  if (typeof content === 'string') return [{ text: content }];
  return content.map((item) => ({ ...item }));
}

/** The text of the items, concatenated without separators (Qwen-Agent's text flattening). */
export function textOf(items: readonly ContentItem[]): string {
  return items.map((item) => item.text ?? '').join('');
}

export function appendText(items: ContentItem[], text: string): void {
  if (!text) return;
  const last = items[items.length - 1];
  if (last && last.text !== undefined) last.text += text;
  else items.push({ text });
}

export function appendItems(items: ContentItem[], more: readonly ContentItem[]): void {
  for (const item of more) {
    if (item.text !== undefined) appendText(items, item.text);
    else items.push({ ...item });
  }
}

/** Text of the trailing run of text items (what a continuation would follow). */
export function trailingText(items: readonly ContentItem[]): string {
  const last = items[items.length - 1];
  return last?.text ?? '';
}

/** Replaces the trailing text item's text (no-op when the last item is not text). */
export function setTrailingText(items: ContentItem[], text: string): void {
  const last = items[items.length - 1];
  if (last && last.text !== undefined) last.text = text;
}

export function finalize(draft: Draft): Message {
  const items: ContentItem[] = [];
  appendItems(items, draft.items);
  const content: MessageContent = items.every((i) => i.text !== undefined) ? textOf(items) : items;
  const msg: Message = { role: draft.role, content };
  if (draft.reasoning_content !== undefined && draft.reasoning_content !== '')
    msg.reasoning_content = draft.reasoning_content;
  return msg;
}

/**
 * OpenAI-compatible chat endpoints cannot continue a partial assistant message, so (like Qwen-Agent's
 * simulate_response_completion_with_chat) a trailing assistant message is appended to the user message before it,
 * separated by a blank line; the model then writes what comes next. Without a user message to join, the partial
 * text becomes a user message of its own.
 */
export function foldTrailingAssistant(messages: Message[]): Message[] {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant') return messages;
  const prev = messages[messages.length - 2];
  const botItems = itemsOf(last.content);
  if (!prev || prev.role !== 'user') {
    return [...messages.slice(0, -1), finalize({ role: 'user', items: botItems })];
  }
  const items = itemsOf(prev.content);
  appendText(items, '\n\n');
  appendItems(items, botItems);
  const merged = finalize({ role: 'user', items });
  const keep: Message = { ...prev, content: merged.content };
  return [...messages.slice(0, -2), keep];
}
