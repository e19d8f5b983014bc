// "Create a group" on the Agents page: the user describes a group in words and talks it over with GroupChatCreator
// (lib/agent/group-chat-creator.ts), on their default model or the one they pick; each answer comes back with the
// group as drafted so far, for the user to review and change. Saved, each member becomes a saved agent of the user's
// (an Assistant whose system message is its instructions) and the group a GroupChat holding them, its background its
// system message: all through the saved-agents checks (lib/chat/saved-agents.ts), all or nothing.
import { GroupChatCreator, groupDraftFrom, type GroupDraft } from '../agent';
import type { AppConfig } from '../config';
import type { Lang, Message } from '../llm/schema';
import type { ModelService } from '../models/service';
import { SPEAKER_SELECTIONS } from '../protocol/enums';
import { z } from '../protocol/zod';
import type { OwnerScope } from '../store/owner';
import type { SavedAgent } from '../store/types';
import { modelFor } from './agents';
import { AgentDefinitionError, parseAgentDefinition, saveAgentDefinition, type AgentChecks } from './saved-agents';

/** Most messages one draft conversation holds (the creator's answers count: four or five a turn). */
export const MAX_DRAFT_MESSAGES = 80;
/** Most members a group is saved with. */
export const MAX_GROUP_MEMBERS = 12;

const DraftMessageSchema = z.object({
  role: z.enum(['user', 'assistant'], { error: 'each message is the user’s or the creator’s' }),
  content: z.string({ error: 'a message’s content is text' }).max(20_000, 'a message has at most 20,000 characters'),
  name: z.string().max(100).optional(),
});

export const GroupDraftRequestSchema = z.object({
  messages: z
    .array(DraftMessageSchema, { error: '"messages" is the conversation with the creator' })
    .min(1, 'Describe the group first.')
    .max(MAX_DRAFT_MESSAGES, `A draft holds at most ${MAX_DRAFT_MESSAGES} messages: save the group, or start again.`),
  /** A model id from the model list (default: the user's default model). */
  model: z.string().max(500).optional(),
});
export type GroupDraftRequest = z.infer<typeof GroupDraftRequestSchema>;

export interface GroupDraftReply {
  /** The creator's new messages (its background, members' configurations and answer), to send back next time. */
  messages: Message[];
  /** The group as the whole conversation drafts it. */
  draft: GroupDraft;
  /** What the creator asks or says to the user. */
  answer: string;
}

function checked<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const at = issue.path.join('.');
    throw new AgentDefinitionError(at ? `${at}: ${issue.message}` : issue.message, at || undefined);
  }
  return r.data;
}

/** One turn of the conversation with GroupChatCreator, on the owner's model. */
export async function draftGroup(
  deps: { models: ModelService; config: Pick<AppConfig, 'llm'> },
  owner: OwnerScope,
  input: unknown,
  lang?: Lang,
): Promise<GroupDraftReply> {
  const request = checked(GroupDraftRequestSchema, input);
  const messages: Message[] = request.messages.map((m) => ({ ...m }));
  if (messages[messages.length - 1]!.role !== 'user')
    throw new AgentDefinitionError('The last message is the user’s: say what the group should be.', 'messages');
  const resolved = await deps.models.resolve(owner, request.model);
  const llm = modelFor(resolved, { fncallMode: 'native', generateCfg: {} }, { vision: deps.config.llm.vision });
  const creator = new GroupChatCreator({ llm, maxLlmCalls: 1 });
  const out = await creator.runNonStream(messages, lang ? { lang } : {});
  const answer = out.findLast((m) => m.name === creator.name)?.content;
  return {
    messages: out,
    draft: groupDraftFrom([...messages, ...out]),
    answer: typeof answer === 'string' ? answer : '',
  };
}

export const AgentGroupSchema = z.object({
  name: z.string({ error: 'Give the group a name.' }).trim().min(1, 'Give the group a name.').max(60),
  background: z.string().max(4000, 'The background has at most 4,000 characters.').default(''),
  members: z
    .array(
      z.object({
        name: z.string().trim().min(1, 'Every member needs a name.').max(60, 'A name is at most 60 characters.'),
        description: z.string().max(500).default(''),
        instructions: z.string().max(20_000).default(''),
      }),
    )
    .min(1, 'A group needs at least one member.')
    .max(MAX_GROUP_MEMBERS, `A group has at most ${MAX_GROUP_MEMBERS} members.`),
  selection: z.enum(SPEAKER_SELECTIONS).optional(),
});
export type AgentGroupInput = z.input<typeof AgentGroupSchema>;

/** Saves the reviewed group: its members, then the GroupChat holding them. Nothing is saved when any is refused. */
export async function saveAgentGroup(
  store: AgentChecks,
  owner: OwnerScope,
  input: unknown,
): Promise<{ group: SavedAgent; members: SavedAgent[] }> {
  const group = checked(AgentGroupSchema, input);
  const names = new Set<string>();
  for (const [i, m] of group.members.entries()) {
    const key = m.name.toLowerCase();
    if (names.has(key) || key === group.name.toLowerCase())
      throw new AgentDefinitionError(
        `members.${i}.name: "${m.name}" is taken by another member or the group; names must differ.`,
        `members.${i}.name`,
      );
    names.add(key);
  }
  const members = group.members.map((m) =>
    parseAgentDefinition({
      name: m.name,
      description: m.description,
      avatar: '🙂',
      kind: 'assistant',
      systemMessage: m.instructions,
    }),
  );
  const definition = {
    name: group.name,
    description: group.background.slice(0, 500),
    avatar: '👥',
    kind: 'groupchat',
    systemMessage: group.background,
    selection: group.selection ?? 'auto',
  };
  parseAgentDefinition({ ...definition, members: ['(checked before anything is saved)'] });
  const saved: SavedAgent[] = [];
  try {
    for (const m of members) saved.push(await saveAgentDefinition(store, owner, undefined, m));
    const made = await saveAgentDefinition(store, owner, undefined, { ...definition, members: saved.map((s) => s.id) });
    return { group: made, members: saved };
  } catch (e) {
    for (const s of saved) await store.deleteAgent(owner, s.id).catch(() => false);
    throw e;
  }
}
