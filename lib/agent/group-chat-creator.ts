// GroupChatCreator: Qwen-Agent's helper that designs a group chat with the user. Described in words, a group comes
// back as its background and one configuration per member ({name, description, instructions}); the user answers the
// creator's questions, and each later answer repeats only what changed. The model writes its reply in upstream's
// format, "<Background>: …", "<Config>: {…}" per member, "<Answer>: …"; the run turns it into upstream's messages:
// one named `background`, one named `role_config` per member (its JSON), then the answer. Given back as history,
// those messages are folded into that format again, so the model sees its own earlier replies.
import JSON5 from 'json5';
import { contentText, type Lang, type Message } from '../llm/schema';
import type { StopReason } from '../protocol/enums';
import { Agent, type AgentOptions } from './agent';
import { HeldText } from './held-text';
import type { RunState } from './run-state';

export const BACKGROUND_TOKEN = '<Background>';
export const CONFIG_TOKEN = '<Config>';
export const ANSWER_TOKEN = '<Answer>';
/** The names of the messages a creator writes besides its answer. */
export const BACKGROUND_NAME = 'background';
export const ROLE_CONFIG_NAME = 'role_config';

/** One member of the group, as the creator configures it. */
export interface RoleConfig {
  name: string;
  description: string;
  /** What the member is told to be and do (its system message), in the second person. */
  instructions: string;
}

/** A group as the creator's messages describe it so far. */
export interface GroupDraft {
  background: string;
  members: RoleConfig[];
}

const EXAMPLE = {
  en: {
    name: 'Travel Planner',
    description: 'Plans trips on a budget',
    instructions:
      'You are a travel planner. Propose a day-by-day plan with costs, and suggest one cheaper alternative for each day.',
  },
  zh: {
    name: '旅行规划师',
    description: '按预算规划行程',
    instructions: '你是一位旅行规划师。按天给出行程和花费，并为每天提供一个更省钱的备选方案。',
  },
} as const;

function creatorPrompt(lang: Lang): string {
  const example = JSON.stringify(EXAMPLE[lang], null, 2);
  if (lang === 'zh')
    return `你帮助用户创建一个群聊：根据用户给出的主题，设计若干个虚拟角色，让他们在同一个聊天室里对话；并通过与用户交谈，弄清用户对这些角色的要求。

每个角色的配置是一个 JSON 对象：
{"name": "角色名，五个字左右", "description": "一句话简介，十个字左右", "instructions": "对角色的具体要求，三十字左右，用第二人称称呼角色"}

一个好的配置示例：
${example}

之后的每次回复都严格使用下面的格式，除此之外不要写其他内容：
${BACKGROUND_TOKEN}: 群聊的背景，包括人物之间的关系和预设的故事背景。
${CONFIG_TOKEN}: 第一个角色的配置（上面的 JSON 格式，name 和 description 不能为空；instructions 比 description 具体；用户给出的详细要求要完整保留，用“你是……，你会……”这样的第二人称写）。
${CONFIG_TOKEN}: 第二个角色的配置，要求同上。
……
${CONFIG_TOKEN}: 第 n 个角色的配置。用户没有说明人数时 n 为 3；每个角色的名字都不相同。
${ANSWER_TOKEN}: 你想对用户说的话：询问用户对角色还有什么要求，不能为空；问题要宽泛，不要重复问相似的问题。

如果群聊背景或某个角色的配置不需要改动，可以不再输出 ${BACKGROUND_TOKEN} 和那个角色的 ${CONFIG_TOKEN}，只输出 ${ANSWER_TOKEN} 和需要修改的 ${CONFIG_TOKEN}。`;
  return `You help the user create a group chat: from the topic the user gives, design a few fictional roles who will talk with each other in one chat room, and talk with the user to find out what they want of these roles.

Each role is configured by one JSON object:
{"name": "the role's name, a few words", "description": "a one-line introduction, about ten words", "instructions": "what the role must do, about thirty words, addressing the role as you"}

A good configuration looks like this:
${example}

Write every reply in exactly this format, and nothing else:
${BACKGROUND_TOKEN}: the background of the group: how the roles are related, the story they are in.
${CONFIG_TOKEN}: the first role's configuration, in the JSON format above. name and description are never empty; instructions say more than description; keep every detailed requirement the user gave, written to the role in the second person ("You are …, you can …").
${CONFIG_TOKEN}: the second role's configuration, the same way.
…
${CONFIG_TOKEN}: the n-th role's configuration. When the user does not say how many roles, n is 3; no two roles have the same name.
${ANSWER_TOKEN}: what you want to say to the user: ask what else they want of the roles. Never empty; ask broad questions, and do not ask the same thing twice.

When the background or a role's configuration needs no change, leave out its ${BACKGROUND_TOKEN} or ${CONFIG_TOKEN} line and write only ${ANSWER_TOKEN} and the ${CONFIG_TOKEN} lines that change.`;
}

export class GroupChatCreator extends Agent {
  /** Instructions given as systemMessage, told after the creator's own. */
  private readonly extra: string;

  constructor(opts: AgentOptions) {
    super({ ...opts, name: opts.name ?? 'GroupChatCreator', systemMessage: undefined });
    this.extra = opts.systemMessage ?? '';
  }

  protected override async loop(input: Message[], run: RunState): Promise<StopReason> {
    const own = [creatorPrompt(run.lang), this.extra].filter(Boolean).join('\n\n');
    const history = asCreatorHistory(input);
    const first = history[0];
    const messages: Message[] =
      first?.role === 'system'
        ? [{ role: 'system', content: `${own}\n\n${contentText(first.content)}` }, ...history.slice(1)]
        : [{ role: 'system', content: own }, ...history];
    run.iteration = 1;
    const held = new HeldText();
    await this.callLlm(messages, [], run, { text: held });
    const reply = parseCreatorReply(held.text);
    if (reply.background)
      run.emit({ type: 'text-delta', text: reply.background, newMessage: true, name: BACKGROUND_NAME });
    for (const config of reply.configs)
      run.emit({ type: 'text-delta', text: config, newMessage: true, name: ROLE_CONFIG_NAME });
    run.emit({ type: 'text-delta', text: reply.answer, newMessage: true });
    return 'answered';
  }
}

/** The creator's earlier messages (background, role_config, answer) folded back into the one reply the model wrote. */
function asCreatorHistory(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  let parts: string[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') {
      out.push(m);
      continue;
    }
    if (m.function_call) continue;
    const text = contentText(m.content);
    if (m.name === BACKGROUND_NAME) parts.push(`${BACKGROUND_TOKEN}: ${text}`);
    else if (m.name === ROLE_CONFIG_NAME) parts.push(`${CONFIG_TOKEN}: ${text}`);
    else {
      parts.push(`${ANSWER_TOKEN}: ${text}`);
      out.push({ role: 'assistant', content: parts.join('\n') });
      parts = [];
    }
  }
  return out;
}

const TOKEN = /<(Background|Config|Answer)>\s*[:：]?[ \t]*/g;

/** A reply in the creator's format: its background, each configuration that is a JSON object (as written), and
 *  its answer. A reply without any of them is all answer. */
export function parseCreatorReply(text: string): { background: string; configs: string[]; answer: string } {
  const marks = [...text.matchAll(TOKEN)].map((m) => ({ kind: m[1]!, at: m.index, after: m.index + m[0].length }));
  let background = '';
  let answer = '';
  let answered = false;
  const configs: string[] = [];
  marks.forEach((mark, i) => {
    if (answered) return;
    const body = text.slice(mark.after, mark.kind === 'Answer' ? undefined : marks[i + 1]?.at).trim();
    if (mark.kind === 'Answer') {
      answer = body;
      answered = true;
    } else if (mark.kind === 'Background') background ||= body;
    else if (roleConfig(body)) configs.push(stripFence(body));
  });
  if (!background && !configs.length && !answer) answer = text.trim();
  return { background, configs, answer };
}

function stripFence(text: string): string {
  return text
    .replace(/^```\w*\s*/, '')
    .replace(/\s*```$/, '')
    .trim();
}

/** A configuration's JSON as a RoleConfig; undefined when it is not one (no name). */
export function roleConfig(text: string): RoleConfig | undefined {
  let value: unknown;
  try {
    value = JSON5.parse(stripFence(text));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' ? x.trim() : '');
  const name = str(v.name);
  if (!name) return undefined;
  return { name, description: str(v.description), instructions: str(v.instructions) };
}

/**
 * The group a creator's messages describe: the latest background, and each member's latest configuration (a
 * configuration with a member's name replaces it, a new name joins), starting from `draft` when one is given, as
 * upstream's group chat demo keeps it.
 */
export function groupDraftFrom(
  messages: readonly Message[],
  draft: GroupDraft = { background: '', members: [] },
): GroupDraft {
  let background = draft.background;
  const members = [...draft.members];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    if (m.name === BACKGROUND_NAME) background = contentText(m.content).trim();
    if (m.name !== ROLE_CONFIG_NAME) continue;
    const config = roleConfig(contentText(m.content));
    if (!config) continue;
    const at = members.findIndex((x) => x.name === config.name);
    if (at >= 0) members[at] = config;
    else members.push(config);
  }
  return { background, members };
}
