// What a client may ask of the chat service, checked at the door: the page's server actions and POST /api/chat
// parse their input with these schemas, and the service takes only what they let through. Each message says what
// was wrong in words a client can act on.
import { z } from '../protocol/zod';
import { LANGS } from '../protocol/message';
import { SettingsPatchSchema } from '../protocol/conversation-settings';

const message = z
  .string({ error: '"message" must be a non-empty string.' })
  .refine((m) => m.trim() !== '', '"message" must be a non-empty string.');
const conversationId = z.string({ error: '"conversationId" must be a string.' }).optional();
/** The page's language, which the agent's prompts follow unless the conversation's settings name one. */
const pageLang = z.enum(LANGS, { error: '"lang" must be "en" or "zh"' });
const { model, agent, tools, fncallMode, documentTools } = SettingsPatchSchema.shape;
const files = z.array(z.string(), {
  error: '"files" must be a list of upload references ("ref" in the answer of POST /api/files).',
});

/** A new message: in a conversation, or starting one (with the settings picked for it). `files` are upload
 *  references (POST /api/files) the message carries. */
export const SendRequestSchema = z.object({
  conversationId,
  message,
  files: files.optional(),
  settings: SettingsPatchSchema.optional(),
  lang: pageLang.optional(),
});
export type SendRequest = z.infer<typeof SendRequestSchema>;

/** The body of POST /api/chat: a message, with the conversation's agent, tools and call format when given. */
export const ChatRequestSchema = z
  .object(
    {
      message,
      conversationId,
      model: model.optional(),
      agent: agent.optional(),
      tools: tools.optional(),
      fncallMode: fncallMode.optional(),
      documentTools: documentTools.optional(),
      files: files.optional(),
    },
    { error: '"message" must be a non-empty string.' },
  )
  .transform(({ message, conversationId, files, ...settings }): SendRequest => {
    const given = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
    return { message, conversationId, files, settings: Object.keys(given).length ? given : undefined };
  });

export const EditRequestSchema = z.object({ turnId: z.string(), message, lang: pageLang.optional() });

export const RegenerateRequestSchema = z.object({ turnId: z.string(), lang: pageLang.optional() });

/** A request that is not what the use case takes (HTTP 400): the message says what is wrong with it. */
export class RequestError extends Error {
  override name = 'RequestError';
  readonly status = 400;
}

/** `value` as `schema` has it, or a RequestError saying the first thing wrong with it. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new RequestError(parsed.error.issues[0]?.message ?? 'The request is not valid.');
}

/** The most turns "Simulate a user" plays in one go (the page asks for each in turn). */
export const MAX_SIMULATED_TURNS = 10;

/** "Simulate a user": who the simulated user is (optional), and the page's language. */
export const SimulateRequestSchema = z.object({
  persona: z.string({ error: '"persona" must be text' }).max(2000, '"persona" has at most 2,000 characters').optional(),
  lang: pageLang.optional(),
});
