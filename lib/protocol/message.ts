// Qwen-Agent's internal message schema, as the events carry it (run-start input, tool results): roles system, user,
// assistant, function; content a string or content items; function_call; extra.function_id. The helpers that work
// on messages (validating loose input, text, language) are in lib/llm/schema.ts.
import { z } from './zod';

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

export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];
