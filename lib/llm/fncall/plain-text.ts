// A history with past tool calls, sent to a model that gets no tools this time (no functions, or
// function_choice 'none'): calls and results become user text, so the model sees what happened without being
// tempted to write calls of its own (Qwen-Agent's _remove_fncall_messages).
import type { ContentItem, Lang, Message } from '../schema';
import { appendItems, appendText, itemsOf, textOf } from './content';

const WORDING = {
  en: {
    call: (name: string, args: string) => `Tool call: "${name}" was run with these arguments:\n${args}`,
    result: (text: string) => `Tool output:\n${text}`,
    empty: 'No result.',
  },
  zh: {
    call: (name: string, args: string) => `调用了工具"${name}"，所用参数如下：\n${args}`,
    result: (text: string) => `工具返回的内容：\n${text}`,
    empty: '无结果。',
  },
} as const;

// Shown between two consecutive user messages so the model focuses on the later one.
const FILLER_ASSISTANT = '...';

function resultParts(msg: Message, lang: Lang): { text: string; media: ContentItem[] } {
  const items = itemsOf(msg.content);
  const text = textOf(items);
  const media = items.filter((i) => i.text === undefined);
  return { text: text === '' && media.length === 0 ? WORDING[lang].empty : text, media };
}

function appendToUser(out: Message[], text: string, media: ContentItem[] = []): void {
  const last = out[out.length - 1];
  if (!last || last.role !== 'user') {
    out.push({ role: 'user', content: media.length ? [{ text }, ...media] : text });
    return;
  }
  if (typeof last.content === 'string' && media.length === 0) {
    last.content = last.content ? `${last.content}\n\n${text}` : text;
    return;
  }
  const items = itemsOf(last.content);
  if (textOf(items)) appendText(items, '\n\n');
  appendText(items, text);
  appendItems(items, media);
  last.content = items;
}

/** Returns a new list with only system/user/assistant messages; the input is not mutated. */
export function functionsToText(messages: readonly Message[], lang: Lang): Message[] {
  const words = WORDING[lang];
  const out: Message[] = [];
  for (const original of messages) {
    const msg = structuredClone(original);
    if (msg.role === 'function') {
      const { text, media } = resultParts(msg, lang);
      appendToUser(out, words.result(text), media);
      continue;
    }
    if (msg.function_call) {
      const call = msg.function_call;
      // A call message rarely carries text too; keep that text as an ordinary assistant turn.
      if (textOf(itemsOf(msg.content)).trim() || msg.reasoning_content) {
        const said: Message = { role: 'assistant', content: msg.content };
        if (msg.reasoning_content) said.reasoning_content = msg.reasoning_content;
        if (msg.name) said.name = msg.name;
        out.push(said);
      }
      appendToUser(out, words.call(call.name, call.arguments));
      continue;
    }
    if (msg.role === 'user' && out[out.length - 1]?.role === 'user') {
      out.push({ role: 'assistant', content: FILLER_ASSISTANT });
    }
    out.push(msg);
  }
  return out;
}
