// What a client may ask of the chat service, checked at the door: the page's server actions and POST /api/chat
// parse their input with these schemas, and the service takes only what they let through. Each message says what
// was wrong in words a client can act on.
import { z } from '../protocol/zod';
import { CHAT_AGENT_KINDS, FNCALL_MODES } from '../protocol/enums';
import { LANGS } from '../protocol/message';
import { DOCUMENT_TOOLS_MODES } from './document-tools';

const message = z
  .string({ error: '"message" must be a non-empty string.' })
  .refine((m) => m.trim() !== '', '"message" must be a non-empty string.');
const conversationId = z.string({ error: '"conversationId" must be a string.' }).optional();
const agent = z.enum(CHAT_AGENT_KINDS, {
  error: `"agent" must be one of ${CHAT_AGENT_KINDS.map((k) => `"${k}"`).join(', ')}`,
});
const documentTools = z.enum(DOCUMENT_TOOLS_MODES, { error: '"documentTools" must be "auto" or "off"' });
const tools = z.array(z.string({ error: '"tools" must be a list of tool names' }), {
  error: '"tools" must be a list of tool names',
});
const model = z
  .string({ error: '"model" must be a model id from GET /api/models ("<connection>/<model name>").' })
  .refine((m) => /^[^/]+\/./.test(m), '"model" must be a model id from GET /api/models ("<connection>/<model name>").');
const fncallMode = z.enum(FNCALL_MODES, { error: '"fncallMode" must be native, nous or qwen' });
/** The page's language, which the agent's prompts follow unless the conversation's settings name one. */
const pageLang = z.enum(LANGS, { error: '"lang" must be "en" or "zh"' });
const files = z.array(z.string(), {
  error: '"files" must be a list of upload references ("ref" in the answer of POST /api/files).',
});

/** A change to a conversation's settings: each field given replaces the stored one. */
export const SettingsPatchSchema = z.object({
  model: model.optional(),
  agent: agent.optional(),
  tools: tools.optional(),
  fncallMode: fncallMode.optional(),
  generateCfg: z
    .record(z.string(), z.number().refine(Number.isFinite, 'Parameters must be finite numbers.'))
    .optional(),
  systemMessage: z.string().optional(),
  pauseBeforeTools: z.boolean().optional(),
  /** Give the model the images the tools produced (when it can see them). */
  toolImages: z.boolean().optional(),
  recordRawStream: z.boolean().optional(),
  /** The language of the agent's prompts; "auto" follows the page. */
  lang: z.enum(['auto', ...LANGS], { error: '"lang" must be "auto", "en" or "zh"' }).optional(),
  /** A saved agent's id ('' for none). */
  agentId: z.string({ error: '"agentId" must be a saved agent\'s id' }).optional(),
  /** "off": the document tools only when ticked, even when the conversation has documents. */
  documentTools: documentTools.optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

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

export class RequestError extends Error {
  override name = 'RequestError';
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
