// A conversation's settings, which the user picks on the page: one schema, which checks a change at the door (the
// page's server actions, POST /api/chat: lib/chat/requests.ts) and is the shape the store keeps (lib/store); what a
// new conversation starts with, and how a change combines with what is stored.
import { z } from './zod';
import { CHAT_AGENT_KINDS, FNCALL_MODES, type FncallMode } from './enums';
import { GenerationSettingsSchema } from './generation-settings';
import { LANGS } from './message';

/** 'auto' (the default, also when absent): on while the conversation has documents. 'off': only if ticked. */
export const DOCUMENT_TOOLS_MODES = ['auto', 'off'] as const;

const modelId = '"model" must be a model id from GET /api/models ("<connection>/<model name>").';

/** A change to a conversation's settings: each field given replaces the stored one. */
export const SettingsPatchSchema = z.object({
  /** The conversation's model, an id from the model list (lib/models/ids.ts: "<connection>/<name>"; the connection's
   *  key stays on the server); absent: the server's default model. */
  model: z
    .string({ error: modelId })
    .refine((m) => /^[^/]+\/./.test(m), modelId)
    .optional(),
  agent: z
    .enum(CHAT_AGENT_KINDS, { error: `"agent" must be one of ${CHAT_AGENT_KINDS.map((k) => `"${k}"`).join(', ')}` })
    .optional(),
  /** Registered tool names offered to the model. */
  tools: z
    .array(z.string({ error: '"tools" must be a list of tool names' }), {
      error: '"tools" must be a list of tool names',
    })
    .optional(),
  fncallMode: z.enum(FNCALL_MODES, { error: '"fncallMode" must be native, nous or qwen' }).optional(),
  /** Model parameters (temperature, top_p, max_tokens, ...), sent as generate_cfg. */
  generateCfg: GenerationSettingsSchema.optional(),
  systemMessage: z.string().optional(),
  /** Pause before each tool call: the user edits the arguments, runs it, skips it, or supplies the result. */
  pauseBeforeTools: z.boolean().optional(),
  /** Give the model the images the tools of each step produced (code_interpreter charts, MCP images), when it can see
   *  them (generate_cfg.tool_images). Absent: off, unless the server's TOOL_IMAGES_TO_MODEL turns it on. */
  toolImages: z.boolean().optional(),
  /** Keep each model call's SSE chunks as received in the run log (the inspector's "Raw stream"); off by default. */
  recordRawStream: z.boolean().optional(),
  /** The language of the agent's prompts. 'auto' or absent: the page's language (without a page, the messages'). */
  lang: z.enum(['auto', ...LANGS], { error: '"lang" must be "auto", "en" or "zh"' }).optional(),
  /** A saved agent (the Agents page) the conversation talks to: its kind, prompt, tools and settings replace the
   *  fields above for its runs ('' in a change: none). */
  agentId: z.string({ error: '"agentId" must be a saved agent\'s id' }).optional(),
  /** The document tools (retrieval, doc_parser) while the conversation has documents: 'auto' or absent offers them,
   *  'off' only when ticked in `tools` (lib/chat/document-tools.ts). */
  documentTools: z.enum(DOCUMENT_TOOLS_MODES, { error: '"documentTools" must be "auto" or "off"' }).optional(),
});
export type SettingsPatch = z.infer<typeof SettingsPatchSchema>;

/** A conversation's settings as stored: these fields always have a value (defaultSettings). */
type Always = 'agent' | 'tools' | 'fncallMode' | 'generateCfg' | 'systemMessage' | 'pauseBeforeTools';
export type ConversationSettings = Required<Pick<SettingsPatch, Always>> & Omit<SettingsPatch, Always>;

/** A new conversation's settings; the call format is the server's (AGENT_FNCALL_MODE), and so is whether tool images
 *  go to the model (TOOL_IMAGES_TO_MODEL). */
export function defaultSettings(
  fncallMode: FncallMode = 'native',
  opts: { toolImages?: boolean } = {},
): ConversationSettings {
  return {
    agent: 'fncall',
    tools: ['calculator', 'current_time'],
    fncallMode,
    generateCfg: {},
    systemMessage: '',
    pauseBeforeTools: false,
    ...(opts.toolImages ? { toolImages: true } : {}),
  };
}

/** Shallow merge: a given field replaces the stored one whole (so a caller can drop a generateCfg key or a tool);
 *  fields given as undefined, and fields that are no setting, are ignored. */
export function mergeSettings(
  base: ConversationSettings,
  patch: Partial<ConversationSettings> | undefined,
): ConversationSettings {
  const merged: ConversationSettings = { ...base, tools: [...base.tools], generateCfg: { ...base.generateCfg } };
  for (const key of Object.keys(SettingsPatchSchema.shape) as (keyof ConversationSettings)[]) {
    const value: unknown = patch?.[key];
    if (value === undefined) continue;
    const copy = Array.isArray(value) ? [...value] : value && typeof value === 'object' ? { ...value } : value;
    (merged as Record<string, unknown>)[key] = copy;
  }
  if (merged.agentId === '') delete merged.agentId; // '' leaves the saved agent
  return merged;
}
