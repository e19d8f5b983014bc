// Qwen-Agent's internal message schema. The OpenAI wire format (role 'tool', tool_calls[]) exists only in
// lib/llm/oai-wire.ts; everything else in the project speaks this schema.
import { z } from 'zod';

export const ROLES = ['system', 'user', 'assistant', 'function'] as const;
export type Role = (typeof ROLES)[number];

const CONTENT_KEYS = ['text', 'image', 'file', 'audio', 'video'] as const;
export type ContentKind = (typeof CONTENT_KEYS)[number];

/** Exactly one of text | image | file | audio | video. `text` counts as set even when ''; the others must be non-empty. */
export const ContentItemSchema = z
  .object({
    text: z.string().optional(),
    image: z.string().optional(),
    file: z.string().optional(),
    audio: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    video: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .strict()
  .superRefine((item, ctx) => {
    const set = CONTENT_KEYS.filter((k) => (k === 'text' ? item.text !== undefined : Boolean(item[k])));
    if (set.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `a content item must have exactly one of text, image, file, audio, video (got ${set.length ? set.join(', ') : 'none'})`,
      });
    }
  });
export type ContentItem = z.infer<typeof ContentItemSchema>;

export const FunctionCallSchema = z.object({ name: z.string(), arguments: z.string() });
export type FunctionCall = z.infer<typeof FunctionCallSchema>;

export const MessageSchema = z.object({
  role: z.enum(ROLES),
  content: z.union([z.string(), z.array(ContentItemSchema)]),
  reasoning_content: z.union([z.string(), z.array(ContentItemSchema)]).optional(),
  name: z.string().optional(),
  function_call: FunctionCallSchema.optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type Message = z.infer<typeof MessageSchema>;
export type MessageContent = Message['content'];

/** What the model sees of a tool: Qwen-Agent's `tool.function`. */
export interface FunctionDef {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type Lang = 'en' | 'zh';

export class MessageValidationError extends Error {
  override name = 'MessageValidationError';
}

/**
 * Accepts loosely shaped input (null content, null fields, unknown keys) and returns a clean Message:
 * null/undefined content becomes '', null/undefined fields are dropped, unknown keys are ignored,
 * and the role and content items are validated.
 */
export function toMessage(input: unknown): Message {
  if (!input || typeof input !== 'object') throw new MessageValidationError('a message must be an object');
  const raw = input as Record<string, unknown>;
  const candidate: Record<string, unknown> = { role: raw.role, content: raw.content ?? '' };
  for (const key of ['reasoning_content', 'name', 'function_call', 'extra'] as const) {
    if (raw[key] !== null && raw[key] !== undefined) candidate[key] = raw[key];
  }
  const parsed = MessageSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    const detail = issue.path[0] === 'role' ? `role must be one of ${ROLES.join(', ')} (got ${JSON.stringify(raw.role)})` : issue.message;
    throw new MessageValidationError(`invalid message${where}: ${detail}`);
  }
  return parsed.data;
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

export function cloneMessages(messages: readonly Message[]): Message[] {
  return structuredClone(messages) as Message[];
}
