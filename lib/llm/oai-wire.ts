// The only place where Qwen-Agent messages meet the OpenAI wire format.
import type { ContentItem, FunctionDef, Lang, Message } from './schema';
import { contentText } from './schema';

export type WirePart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WirePart[] }
  | { role: 'assistant'; content: string | null; reasoning_content?: string; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface WireTool {
  type: 'function';
  function: FunctionDef;
}

function toParts(items: ContentItem[]): string | WirePart[] {
  if (items.every((i) => i.text !== undefined)) return items.map((i) => i.text).join('\n');
  const parts: WirePart[] = [];
  for (const item of items) {
    if (item.text !== undefined) parts.push({ type: 'text', text: item.text });
    else if (item.image) parts.push({ type: 'image_url', image_url: { url: item.image } });
    // file/audio/video items were turned into upload notes before this point (see upload-info.ts).
  }
  return parts;
}

/** The text before the images of tool results, in the user message that carries them. */
const TOOL_IMAGES_LEAD = {
  en: (names: string) => `The images returned by the tool results above (${names}):`,
  zh: (names: string) => `上面的工具结果返回的图片（${names}）：`,
} as const;

/**
 * Qwen-Agent messages -> OpenAI chat messages.
 * - Consecutive assistant messages become one assistant message with tool_calls[]. Upstream lets a later text
 *   overwrite an earlier one in the same run; we concatenate them so nothing the model said is lost.
 * - function results become role 'tool' with `tool_call_id` (upstream writes the key as `id`, which OpenAI-compatible
 *   servers reject or ignore).
 * - Image items a function result still holds (tool images for a model that sees: lib/llm/tool-images.ts) cannot ride
 *   in a tool message: OpenAI, vLLM, SGLang and llama.cpp take only text there (image parts only in user messages).
 *   The tool message keeps the text, and one user message after the results carries the images, each after the
 *   name of the tool that returned it, in the order returned.
 */
export function toWireMessages(
  messages: readonly Message[],
  opts: { sendReasoning?: boolean; lang?: Lang } = {},
): WireMessage[] {
  const sendReasoning = opts.sendReasoning ?? true;
  const out: WireMessage[] = [];
  let toolImages: { names: string[]; parts: WirePart[] } | undefined;
  const flushToolImages = () => {
    if (!toolImages) return;
    const lead = TOOL_IMAGES_LEAD[opts.lang ?? 'en']([...new Set(toolImages.names)].join(', '));
    out.push({ role: 'user', content: [{ type: 'text', text: lead }, ...toolImages.parts] });
    toolImages = undefined;
  };
  for (const msg of messages) {
    if (msg.role !== 'function') flushToolImages();
    if (msg.role === 'assistant') {
      const prev = out[out.length - 1];
      const target: Extract<WireMessage, { role: 'assistant' }> =
        prev && prev.role === 'assistant' ? prev : { role: 'assistant', content: null };
      if (target !== prev) out.push(target);
      const text = contentText(msg.content);
      if (text) target.content = target.content ? `${target.content}${text}` : text;
      const reasoning = contentText(msg.reasoning_content);
      if (sendReasoning && reasoning) target.reasoning_content = (target.reasoning_content ?? '') + reasoning;
      if (msg.function_call) {
        (target.tool_calls ??= []).push({
          id: functionIdOf(msg),
          type: 'function',
          function: { name: msg.function_call.name, arguments: msg.function_call.arguments },
        });
      }
      continue;
    }
    if (msg.role === 'function') {
      out.push({ role: 'tool', tool_call_id: functionIdOf(msg), content: contentText(msg.content) });
      const images = typeof msg.content === 'string' ? [] : msg.content.filter((i) => i.image);
      if (images.length) {
        toolImages ??= { names: [], parts: [] };
        for (const item of images) {
          toolImages.names.push(msg.name ?? 'tool');
          toolImages.parts.push({ type: 'image_url', image_url: { url: item.image! } });
        }
      }
      continue;
    }
    if (msg.role === 'system') {
      out.push({ role: 'system', content: contentText(msg.content) });
      continue;
    }
    out.push({ role: 'user', content: typeof msg.content === 'string' ? msg.content : toParts(msg.content) });
  }
  flushToolImages();
  // An assistant message with tool calls and no text is sent with content null, as OpenAI expects; without tool
  // calls it must be a string.
  for (const m of out) if (m.role === 'assistant' && m.content === null && !m.tool_calls) m.content = '';
  return out;
}

/** Qwen-Agent defaults a missing function_id to '1'. */
export function functionIdOf(msg: Message): string {
  const id = msg.extra?.function_id;
  return typeof id === 'string' && id ? id : '1';
}

export function toWireTools(functions: readonly FunctionDef[]): WireTool[] {
  return functions.map((f) => ({
    type: 'function',
    function: { name: f.name, description: f.description, parameters: f.parameters },
  }));
}

/** Assembles streamed tool_call deltas. A delta is matched by index; a new id at a used index starts a new call;
 *  a delta with neither index nor id continues the last call (Qwen-Agent's rule). */
export class ToolCallAssembler {
  private calls: { id: string; name: string; arguments: string }[] = [];
  private byIndex = new Map<number, number>();

  push(delta: {
    index?: number;
    id?: string | null;
    function?: { name?: string | null; arguments?: string | null } | null;
  }): void {
    let slot: number | undefined;
    if (typeof delta.index === 'number') slot = this.byIndex.get(delta.index);
    else slot = this.calls.length ? this.calls.length - 1 : undefined;
    const existing = slot === undefined ? undefined : this.calls[slot];
    if (existing === undefined || (delta.id && existing.id && delta.id !== existing.id)) {
      slot = this.calls.length;
      this.calls.push({ id: delta.id ?? '', name: '', arguments: '' });
      if (typeof delta.index === 'number') this.byIndex.set(delta.index, slot);
    }
    const call = this.calls[slot!]!;
    if (delta.id && !call.id) call.id = delta.id;
    if (delta.function?.name) call.name += delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  get size(): number {
    return this.calls.length;
  }

  /** Calls with a name; ids default to their 1-based position. */
  result(): { id: string; name: string; arguments: string }[] {
    return this.calls.filter((c) => c.name).map((c, i) => ({ ...c, id: c.id || String(i + 1) }));
  }
}

/** An OpenAI chat message as a caller sends it (Chat Completions' request), loosely typed: the caller's parser
 *  (lib/openai-api/request.ts) checks the shape. */
export interface IncomingWireMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content?: string | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[] | null;
  reasoning_content?: string | null;
  name?: string;
  tool_calls?: WireToolCall[] | null;
  tool_call_id?: string;
}

/** A tool message that answers no earlier call: `index` is its place in the messages. */
export class UnansweredToolMessageError extends Error {
  override name = 'UnansweredToolMessageError';
  constructor(
    readonly index: number,
    id: string,
  ) {
    super(
      `messages[${index}]: a tool message answers tool_call_id "${id}", which no earlier assistant message called.`,
    );
  }
}

/**
 * OpenAI chat messages -> Qwen-Agent messages (the inverse of toWireMessages): an assistant message with
 * tool_calls becomes its text (and reasoning) then one function_call message per call, each call's id kept as
 * `function_id`; a tool message becomes a function message named by the call it answers. `developer` is a system
 * message. Throws on a tool message that answers no earlier call.
 */
export function fromWireMessages(messages: readonly IncomingWireMessage[]): Message[] {
  const out: Message[] = [];
  const callNames = new Map<string, string>();
  messages.forEach((m, i) => {
    const content = fromParts(m.content);
    if (m.role === 'system' || m.role === 'developer') {
      out.push({ role: 'system', content: typeof content === 'string' ? content : contentText(content) });
    } else if (m.role === 'user') {
      out.push(m.name ? { role: 'user', content, name: m.name } : { role: 'user', content });
    } else if (m.role === 'assistant') {
      const named = <T extends Message>(msg: T): T => (m.name ? { ...msg, name: m.name } : msg);
      if (m.reasoning_content)
        out.push(named({ role: 'assistant', content: '', reasoning_content: m.reasoning_content }));
      if ((typeof content === 'string' ? content : contentText(content)) || !m.tool_calls?.length)
        out.push(named({ role: 'assistant', content }));
      for (const call of m.tool_calls ?? []) {
        callNames.set(call.id, call.function.name);
        out.push(
          named({
            role: 'assistant',
            content: '',
            function_call: { name: call.function.name, arguments: call.function.arguments },
            extra: { function_id: call.id },
          }),
        );
      }
    } else {
      const id = m.tool_call_id ?? '';
      const name = callNames.get(id);
      if (name === undefined) throw new UnansweredToolMessageError(i, id);
      out.push({
        role: 'function',
        name,
        content: typeof content === 'string' ? content : contentText(content),
        extra: { function_id: id },
      });
    }
  });
  return out;
}

function fromParts(content: IncomingWireMessage['content']): string | ContentItem[] {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? { text: p.text } : { image: p.image_url.url }));
}
