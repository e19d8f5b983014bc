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
import type { ErrorCode, ErrorValues } from '../protocol/errors';
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
  role: z.enum(['user', 'assistant']),
  content: z.string().max(20_000),
  name: z.string().max(100).optional(),
});

export const GroupDraftRequestSchema = z.object({
  messages: z.array(DraftMessageSchema).min(1).max(MAX_DRAFT_MESSAGES),
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

/** A refusal of the draft or the group: the field at fault (for the dialog to point at), the code the page says it by
 *  in its language (lib/i18n/messages, `errors`) and the same words in English (logs, a caller in code). */
function refused(field: string | undefined, code: ErrorCode, message: string, values?: ErrorValues) {
  return new AgentDefinitionError(message, field, code, values);
}

/** English numbers as the catalog's English sentences write them ("20,000"). */
const count = (n: number) => n.toLocaleString('en-US');

/** A member's fields with a length limit: the code each is refused by, and its English words. */
const MEMBER_LIMITS = {
  name: ['group-member-name-long', 'name is'],
  description: ['group-member-description-long', 'description is'],
  instructions: ['group-member-instructions-long', 'instructions are'],
} as const satisfies Record<string, [ErrorCode, string]>;

/** What a schema issue is refused with: each limit a person meets in the dialog has its code; any other value that
 *  does not fit (a wrong type, an unknown speaker selection…) is named by its field. */
function issueRefusal(at: string, issue: { code: string; maximum?: unknown }): AgentDefinitionError {
  const max = Number(issue.maximum);
  const tooBig = issue.code === 'too_big';
  const missing = issue.code === 'too_small' || issue.code === 'invalid_type';
  const say = (code: ErrorCode, message: string, values?: ErrorValues) => refused(at, code, message, values);
  const [, index, part] = /^members\.(\d+)\.(name|description|instructions)$/.exec(at) ?? [];
  const n = Number(index) + 1;
  if (part === 'name' && missing) return say('group-member-name-missing', `Member ${n} needs a name.`, { n });
  if (part && tooBig) {
    const [code, what] = MEMBER_LIMITS[part as keyof typeof MEMBER_LIMITS];
    return say(code, `Member ${n}’s ${what} at most ${count(max)} characters.`, { n, max });
  }
  if (at === 'name' && missing) return say('group-name-missing', 'Give the group a name.');
  if (at === 'name' && tooBig)
    return say('group-name-long', `A group’s name is at most ${count(max)} characters.`, { max });
  if (at === 'background' && tooBig)
    return say('group-background-long', `The background has at most ${count(max)} characters.`, { max });
  if (at === 'members' && issue.code === 'too_small')
    return say('group-members-missing', 'A group needs at least one member.');
  if (at === 'members' && tooBig)
    return say('group-members-many', `A group has at most ${count(max)} members: remove some.`, { max });
  if (at === 'messages' && issue.code === 'too_small') return say('group-describe-first', 'Describe the group first.');
  if (at === 'messages' && tooBig)
    return say('group-draft-long', `A draft holds at most ${count(max)} messages: save the group, or start again.`, {
      max,
    });
  if (/^messages\.\d+\.content$/.test(at) && tooBig)
    return say('group-message-long', `A message to the creator has at most ${count(max)} characters.`, { max });
  const field = at || 'group';
  const message = `${field}: this value does not fit a group (see docs/agents.md).`;
  return refused(at || undefined, 'group-field-invalid', message, { field });
}

function checked<T>(schema: z.ZodType<T>, input: unknown): T {
  const r = schema.safeParse(input);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw issueRefusal(issue.path.join('.'), issue);
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
    throw refused('messages', 'group-last-not-user', 'The last message must be yours: say what the group should be.');
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
  name: z.string().trim().min(1).max(60),
  background: z.string().max(4000).default(''),
  members: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(60),
        description: z.string().max(500).default(''),
        instructions: z.string().max(20_000).default(''),
      }),
    )
    .min(1)
    .max(MAX_GROUP_MEMBERS),
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
      throw refused(
        `members.${i}.name`,
        'group-member-name-taken',
        `Member ${i + 1}’s name “${m.name}” is taken by another member or by the group: names must differ.`,
        { n: i + 1, name: m.name },
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
