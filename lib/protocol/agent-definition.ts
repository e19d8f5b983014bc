// A saved agent's definition (the Agents page): one schema, which checks a definition at the door with messages a
// person can act on (lib/chat/saved-agents.ts) and is the type the store keeps (lib/store) and the export file holds.
import { z } from './zod';
import { FNCALL_MODES, SAVED_AGENT_KINDS, SPEAKER_SELECTIONS } from './enums';
import { GenerationSettingsSchema } from './generation-settings';

/** At most this many documents per agent. */
export const MAX_AGENT_DOCUMENTS = 20;
/** At most this many members per Router or GroupChat: a run builds every member of every member (nested up to
 *  MAX_AGENT_DEPTH), so the count is what bounds the work one saved agent can ask of the server. */
export const MAX_AGENT_MEMBERS = 32;

/** A file a saved agent holds: the bytes are DATA_DIR/files/<hash>/, as for a conversation's upload. */
const agentDocument = z.object(
  {
    hash: z.string().regex(/^[0-9a-f]{64}$/, '"hash" must be the sha256 of the file, 64 hex digits'),
    name: z.string({ error: '"name" must be the file name' }).trim().min(1).max(255),
    size: z.number().int().min(0),
  },
  { error: 'each document is {hash, name, size}' },
);

/** What a saved agent is, as the user defines it (lib/chat/saved-agents.ts checks it with this and exports it as
 *  JSON); the store keeps it whole. */
export const AgentDefinitionSchema = z.object({
  name: z
    .string({ error: '"name" must be a string' })
    .trim()
    .min(1, 'An agent needs a name.')
    .max(60, 'An agent’s name is at most 60 characters.')
    // `plugin:<name>` is how an agent from code is named wherever an id goes (lib/chat/agent-ids.ts): an export file
    // naming a saved agent so would import as the plugin's.
    .refine(
      (name) => !name.startsWith('plugin:'),
      'An agent’s name cannot begin with "plugin:": agents from code are named so.',
    ),
  description: z.string({ error: '"description" must be a string' }).max(500).default(''),
  /** An emoji, or the URL of an image. */
  avatar: z.string({ error: '"avatar" must be an emoji or an image URL' }).max(200_000).default(''),
  kind: z.enum(SAVED_AGENT_KINDS, {
    error: `"kind" must be one of ${SAVED_AGENT_KINDS.join(', ')}`,
  }),
  systemMessage: z.string({ error: '"systemMessage" must be a string' }).default(''),
  /** Registered tool names (builtin and MCP). */
  tools: z.array(z.string(), { error: '"tools" must be a list of tool names' }).default([]),
  /** Absent: the server's call format. */
  fncallMode: z.enum(FNCALL_MODES, { error: '"fncallMode" must be native, nous or qwen' }).optional(),
  generateCfg: GenerationSettingsSchema.default({}),
  /** Shown on its empty conversation (Qwen-Agent's prompt.suggestions). */
  suggestions: z
    .array(z.string().trim().min(1), { error: '"suggestions" must be a list of prompts' })
    .max(8, 'At most 8 prompt suggestions.')
    .default([]),
  /** Router and GroupChat: the saved agents (by id) it holds. */
  members: z
    .array(z.string(), { error: '"members" must be a list of agent ids' })
    .max(MAX_AGENT_MEMBERS, `A Router or GroupChat holds at most ${MAX_AGENT_MEMBERS} members.`)
    .default([]),
  /** GroupChat only (and maxRound). */
  selection: z
    .enum(SPEAKER_SELECTIONS, { error: `"selection" must be one of ${SPEAKER_SELECTIONS.join(', ')}` })
    .optional(),
  maxRound: z.number().int().min(1, '"maxRound" is at least 1').max(20, '"maxRound" is at most 20').optional(),
  /** The model its runs use (an id from the model list, "<connection>/<name>"); absent: the server's default. */
  model: z
    .string({ error: '"model" must be a model id from the model list' })
    .trim()
    .max(500)
    .transform((m) => m || undefined)
    .optional(),
  /** Documents it always has (its knowledge): uploads of its owner's, by content hash. Every run of it can search
   *  them (an Assistant before each answer, other kinds with the document tools). Absent: none. */
  documents: z
    .array(agentDocument, { error: '"documents" must be a list of files' })
    .max(MAX_AGENT_DOCUMENTS, `An agent holds at most ${MAX_AGENT_DOCUMENTS} documents.`)
    .optional(),
});

export type AgentDefinition = z.output<typeof AgentDefinitionSchema>;
export type AgentDocument = z.output<typeof agentDocument>;
