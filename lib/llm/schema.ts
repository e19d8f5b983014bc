// Working with Qwen-Agent's messages (their schema is lib/protocol/message.ts): loose input made valid, text,
// language. The OpenAI wire format (role 'tool', tool_calls[]) exists only in lib/llm/oai-wire.ts; everything else
// in the project speaks this schema.
import { ROLES, type ContentItem, type Lang, type Message, type MessageContent, type Role } from '../protocol/message';

export type { ContentItem, Lang, Message, MessageContent } from '../protocol/message';

/** What the model sees of a tool: Qwen-Agent's `tool.function`. */
export interface FunctionDef {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export class MessageValidationError extends Error {
  override name = 'MessageValidationError';
}

const ROLE_SET: ReadonlySet<string> = new Set(ROLES);

function invalid(where: string, detail: string): never {
  throw new MessageValidationError(`invalid message${where ? ` at ${where}` : ''}: ${detail}`);
}

function toContentItem(value: unknown, where: string): ContentItem {
  if (!value || typeof value !== 'object' || Array.isArray(value)) invalid(where, 'a content item must be an object');
  const raw = value as Record<string, unknown>;
  const item: ContentItem = {};
  const set: string[] = [];
  if (raw.text !== undefined && raw.text !== null) {
    if (typeof raw.text !== 'string') invalid(`${where}.text`, 'text must be a string');
    item.text = raw.text;
    set.push('text');
  }
  for (const key of ['image', 'file'] as const) {
    if (!raw[key]) continue;
    if (typeof raw[key] !== 'string') invalid(`${where}.${key}`, `${key} must be a string`);
    item[key] = raw[key];
    set.push(key);
  }
  if (raw.audio) {
    if (typeof raw.audio !== 'string' && typeof raw.audio !== 'object')
      invalid(`${where}.audio`, 'audio must be a string or an object');
    item.audio = structuredClone(raw.audio) as ContentItem['audio'];
    set.push('audio');
  }
  if (raw.video) {
    if (typeof raw.video !== 'string' && !(Array.isArray(raw.video) && raw.video.every((v) => typeof v === 'string'))) {
      invalid(`${where}.video`, 'video must be a string or a list of frame strings');
    }
    item.video = typeof raw.video === 'string' ? raw.video : [...(raw.video as string[])];
    set.push('video');
  }
  if (set.length !== 1) {
    invalid(
      where,
      `a content item must have exactly one of text, image, file, audio, video (got ${set.length ? set.join(', ') : 'none'})`,
    );
  }
  return item;
}

function toContent(value: unknown, where: string): MessageContent {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) invalid(where, `${where} must be a string or a list of content items`);
  return value.map((item, i) => toContentItem(item, `${where}.${i}`));
}

/**
 * Accepts loosely shaped input (null content, null fields, unknown keys) and returns a fresh, validated Message
 * that shares nothing with the input: null/undefined content becomes '', null/undefined fields are dropped, unknown
 * keys are ignored. Hand-written rather than MessageSchema.parse because it runs at the start of every run; the
 * zod schema (lib/protocol/message.ts) stays the reference (the event schema uses it).
 */
export function toMessage(input: unknown): Message {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new MessageValidationError('a message must be an object');
  const raw = input as Record<string, unknown>;
  if (typeof raw.role !== 'string' || !ROLE_SET.has(raw.role)) {
    invalid('role', `role must be one of ${ROLES.join(', ')} (got ${JSON.stringify(raw.role)})`);
  }
  const msg: Message = { role: raw.role as Role, content: toContent(raw.content ?? '', 'content') };
  if (raw.reasoning_content !== undefined && raw.reasoning_content !== null) {
    msg.reasoning_content = toContent(raw.reasoning_content, 'reasoning_content');
  }
  if (raw.name !== undefined && raw.name !== null) {
    if (typeof raw.name !== 'string') invalid('name', 'name must be a string');
    msg.name = raw.name;
  }
  if (raw.function_call !== undefined && raw.function_call !== null) {
    const fc = raw.function_call as Record<string, unknown>;
    if (typeof fc !== 'object' || typeof fc.name !== 'string' || typeof fc.arguments !== 'string') {
      invalid('function_call', 'function_call must be {name: string, arguments: string}');
    }
    msg.function_call = { name: fc.name, arguments: fc.arguments };
  }
  if (raw.extra !== undefined && raw.extra !== null) {
    if (typeof raw.extra !== 'object' || Array.isArray(raw.extra)) invalid('extra', 'extra must be an object');
    msg.extra = structuredClone(raw.extra) as Record<string, unknown>;
  }
  return msg;
}

export function toMessages(inputs: readonly unknown[]): Message[] {
  return inputs.map(toMessage);
}

/** Plain JSON without undefined fields (Qwen-Agent's model_dump(exclude_none)). */
export function serializeMessage(msg: Message): Message {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(msg)) if (v !== undefined && v !== null) out[k] = v;
  return out as Message;
}

/** The text of a message: the string, or its text items joined by newlines. */
export function contentText(content: MessageContent | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((item) => item.text !== undefined)
    .map((item) => item.text)
    .join('\n');
}

const CJK = /[\u4e00-\u9fff]/;
export function hasChinese(text: string): boolean {
  return CJK.test(text);
}

/** 'zh' iff any system or user message holds a character in U+4E00–U+9FFF. */
export function detectLang(messages: readonly Message[]): Lang {
  for (const m of messages) {
    if (m.role !== 'system' && m.role !== 'user') continue;
    const text = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
    if (hasChinese(text)) return 'zh';
  }
  return 'en';
}
