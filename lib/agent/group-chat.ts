// GroupChat: Qwen-Agent's GroupChat. Members (agents, and the user when the user takes part) speak in rounds, up to
// max_round a turn; who speaks next is chosen by the speaker selection (a host model, in order, at random, or the
// user), and `@Name` in the last message puts the named members first, in the order named. Each member answers as a
// child run and sees the conversation from its side: its own lines as its answers, the others' folded into user
// messages "Name: text". When the user is picked, or the host says [STOP], the turn ends.
import { contentText, hasChinese, type Message } from '../llm/schema';
import type { AgentKind, HandoffReason, SpeakerSelection, StopReason } from '../protocol/enums';
import { Agent, type AgentOptions } from './agent';
import { runChild } from './child-run';
import { HeldText } from './held-text';
import { UserAgent } from './user-agent';
import { checkNames } from './router';
import type { RunState } from './run-state';

/** What the host answers to end the conversation's turn. */
export const GROUP_STOP = '[STOP]';

export interface GroupChatOptions extends AgentOptions {
  /** The members (unique names; their descriptions tell the host who they are). */
  agents: readonly Agent[];
  /** Default 'auto': the group's own model (the host) names the next speaker. */
  selection?: SpeakerSelection;
  /** Most member answers per turn (upstream's default, 3). */
  maxRound?: number;
  /** The user takes part: a member the selection may pick, which ends the turn for the user to speak (a UserAgent
   *  among `agents` says the same). */
  user?: { name: string; description?: string };
  /** For `random` (tests make it predictable). */
  random?: () => number;
}

type Pick = { agent: Agent; reason: HandoffReason } | { user: true; reason: HandoffReason } | { stop: true };

export class GroupChat extends Agent {
  static override readonly kind: AgentKind = 'groupchat';
  readonly agents: readonly Agent[];
  readonly selection: SpeakerSelection;
  readonly maxRound: number;
  readonly user?: { name: string; description?: string };
  private readonly random: () => number;

  constructor(opts: GroupChatOptions) {
    // The group's system message is its background, told to each member (not a message of its own).
    super({ ...opts, systemMessage: undefined });
    if (!Array.isArray(opts.agents))
      throw new TypeError(
        "GroupChat's agents are agents here: a group config dict ({background, agents: [...]}) is not taken. Make each " +
          'role an Assistant ({name, description, systemMessage: instructions, files: knowledge_files, functionList: ' +
          'selected_tools}), pass the human as the user option, and the background as systemMessage (examples/group_chat_demo.ts).',
      );
    // A UserAgent among the agents is the user member, as upstream marks its human member.
    const humans = opts.agents.filter((a) => a instanceof UserAgent);
    if (humans.length > 1 || (humans.length && opts.user))
      throw new Error('A GroupChat takes one user: one UserAgent among its agents, or the user option.');
    this.agents = checkNames(
      opts.agents.filter((a) => !(a instanceof UserAgent)),
      'GroupChat',
    );
    this.selection = opts.selection ?? 'auto';
    this.maxRound = Math.max(1, Math.floor(opts.maxRound ?? 3));
    const user = opts.user ?? (humans[0] && { name: humans[0].name, description: humans[0].description });
    if (user) {
      if (this.agents.some((a) => a.name === user.name))
        throw new Error(`The user and a member of this GroupChat are both named "${user.name}".`);
      this.user = user;
    }
    this.random = opts.random ?? Math.random;
    this.background = opts.systemMessage ?? '';
  }

  private readonly background: string;

  /** The user's name in the group's history (their messages are named so). */
  get userName(): string {
    return this.user?.name ?? 'user';
  }

  protected override async loop(input: Message[], run: RunState): Promise<StopReason> {
    const history = input.map((m) => (m.role === 'user' && !m.name ? { ...m, name: this.userName } : m));
    const queue: string[] = [];
    for (let round = 1; round <= this.maxRound; round++) {
      run.signal.throwIfAborted();
      const last = history[history.length - 1];
      if (last) this.queueMentions(queue, contentText(last.content));
      const pick = await this.next(queue, history, run);
      if ('stop' in pick) {
        run.emit({ type: 'handoff', round, reason: 'stop' });
        break;
      }
      if ('user' in pick) {
        run.emit({ type: 'handoff', round, to: this.userName, user: true, reason: pick.reason });
        break;
      }
      run.emit({ type: 'handoff', round, to: pick.agent.name, reason: pick.reason });
      const outcome = await runChild(pick.agent, this.seenBy(pick.agent.name, history, run.lang), run);
      history.push(...outcome.messages);
    }
    return 'answered';
  }

  /** `@Name`s in a message, each member once, in the order written (the longest name that follows an @). */
  private queueMentions(queue: string[], text: string): void {
    const names = [...this.agents.map((a) => a.name), ...(this.user ? [this.user.name] : [])].sort(
      (a, b) => b.length - a.length,
    );
    for (const piece of text.split('@').slice(1)) {
      const lower = piece.toLowerCase();
      const name = names.find((n) => lower.startsWith(n.toLowerCase()));
      if (name && !queue.includes(name)) queue.push(name);
    }
  }

  private async next(queue: string[], history: Message[], run: RunState): Promise<Pick> {
    const mentioned = queue.shift();
    if (mentioned !== undefined) return this.byName(mentioned, 'mention')!;
    switch (this.selection) {
      case 'manual':
        return { user: true, reason: 'manual' }; // the user names who speaks next
      case 'random': {
        const all = this.speakers();
        const i = Math.min(all.length - 1, Math.floor(this.random() * all.length));
        return this.byName(all[i]!, 'random')!;
      }
      case 'auto': {
        const said = (await this.askHost(history, run)).trim();
        if (said.includes(GROUP_STOP)) return { stop: true };
        const picked = this.byName(said, 'auto') ?? this.byName(said.split('\n')[0]!.replace(/[:：].*$/, ''), 'auto');
        if (picked) return picked;
        break; // a name the group does not have: round robin, as upstream
      }
      case 'round_robin':
        break;
    }
    const all = this.speakers();
    const at = all.indexOf(history[history.length - 1]?.name ?? '');
    return this.byName(all[(at + 1) % all.length]!, 'round_robin')!;
  }

  /** Who may speak, in order: the members, then the user when the user takes part. */
  private speakers(): string[] {
    return [...this.agents.map((a) => a.name), ...(this.user ? [this.user.name] : [])];
  }

  private byName(name: string, reason: HandoffReason): Pick | undefined {
    const clean = name.trim().replace(/^@/, '');
    const lower = clean.toLowerCase();
    const agent = this.agents.find((a) => a.name === clean) ?? this.agents.find((a) => a.name.toLowerCase() === lower);
    if (agent) return { agent, reason };
    if (this.user && this.user.name.toLowerCase() === lower) return { user: true, reason };
    return undefined;
  }

  /** One call of the group's model as the host (GroupChatAutoRouter): it answers a name or [STOP]. Its text is not
   *  shown as an answer (the handoff says whom it named); the inspector has it as the call's raw response. */
  private async askHost(history: Message[], run: RunState): Promise<string> {
    const speakers = [
      ...this.agents.map((a) => ({ name: a.name, description: a.description })),
      ...(this.user ? [{ name: this.user.name, description: this.user.description ?? '' }] : []),
    ];
    const descs = speakers.map((s) => `${s.name}: ${s.description || '-'}`).join('\n');
    const zh = hasChinese(descs);
    const names = speakers.map((s) => s.name).join(', ');
    const userNote = this.user
      ? zh
        ? `${this.user.name} 是真实的用户，除非必要不要选他。`
        : `${this.user.name} is the real user: pick them only when the others need their answer.`
      : '';
    const system = zh
      ? `你在主持一个多角色的对话，要决定下一位发言者。角色如下：\n${descs}\n\n对话记录的格式是「角色名: 发言内容」，越靠后的越重要。读完记录后，从 [${names}] 中选出下一位发言者。${userNote}用户表示要结束，或话题已经谈完时，回答 ${GROUP_STOP}。只回答一个角色名或 ${GROUP_STOP}，不要写别的。`
      : `You host a conversation between several roles and decide who speaks next. The roles:\n${descs}\n\nThe dialogue is written as "Role name: what they said", latest last (it matters most). Read it and name the next speaker, one of [${names}]. ${userNote} When the user says to stop, or the topic is done, answer ${GROUP_STOP}. Answer with one role name or ${GROUP_STOP}, nothing else.`;
    const lines: string[] = [];
    let lastName = '';
    for (const m of history) {
      const text = contentText(m.content).trim();
      if (m.role === 'function' || m.role === 'system' || !text) continue;
      const name = m.name ?? m.role;
      if (lines.length && name === lastName) lines[lines.length - 1] += `\n${text}`;
      else lines.push(`${name}: ${text}`);
      lastName = name;
    }
    if (!lines.length)
      lines.push(
        zh
          ? '对话刚开始，请任选一位发言者，不要选真实用户。'
          : 'The dialogue has just begun: pick any speaker but the user.',
      );
    run.iteration++;
    const sink = new HeldText();
    await this.callLlm(
      [
        { role: 'system', content: system },
        { role: 'user', content: lines.join('\n') },
      ],
      [],
      run,
      { text: sink },
    );
    return sink.text;
  }

  /** The conversation as `name` sees it (upstream's _manage_messages): its own lines as its answers (with its tool
   *  calls and their results), everyone else's folded into user messages "Name: text", ending with "name: ". */
  private seenBy(name: string, history: Message[], lang: 'en' | 'zh'): Message[] {
    const out: Message[] = [];
    const systems: string[] = [];
    let pending: string | undefined; // others' lines waiting to become one user message
    let caller = ''; // who made the tool calls whose results follow
    for (const m of history) {
      if (m.role === 'system') {
        systems.push(contentText(m.content));
        continue;
      }
      if (m.function_call) caller = m.name ?? '';
      const speaker = m.role === 'function' ? caller : m.role === 'user' ? undefined : m.name;
      if (speaker === name) {
        if (pending !== undefined) {
          out.push({ role: 'user', content: pending });
          pending = undefined;
        }
        // A new answer of its own follows a user message (a model is asked before it answers); its tool results and
        // the text after them continue the same answer.
        const prev = out[out.length - 1];
        if (
          m.role === 'assistant' &&
          !m.function_call &&
          (!prev || (prev.role === 'assistant' && !prev.function_call && contentText(prev.content) !== ''))
        )
          out.push({ role: 'user', content: `${name}: ` });
        out.push(m.role === 'function' ? m : { ...m, role: 'assistant' });
        continue;
      }
      if (m.role === 'function' || m.function_call) continue; // another member's tool steps
      const text = contentText(m.content).trim();
      if (!text) continue;
      const line = `${m.name ?? m.role}: ${text}`;
      pending = pending === undefined ? line : `${pending}\n${line}`;
    }
    if (pending !== undefined) out.push({ role: 'user', content: `${pending}\n${name}: ` });
    else if (out[out.length - 1]?.role === 'user') {
      const last = out[out.length - 1]!;
      out[out.length - 1] = { ...last, content: `${contentText(last.content)}\n${name}: ` };
    } else out.push({ role: 'user', content: `${name}: ` });
    const note = this.groupNote(name, lang);
    const system = [...systems, note].filter(Boolean).join('\n\n');
    return [{ role: 'system', content: system }, ...out];
  }

  /** What a member is told of the group (our wording of upstream's role prompt). */
  private groupNote(name: string, lang: 'en' | 'zh'): string {
    const others = this.speakers().filter((n) => n !== name);
    const zh = lang === 'zh' || hasChinese(this.background);
    const background = this.background
      ? zh
        ? `群聊背景：${this.background}\n`
        : `About the group: ${this.background}\n`
      : '';
    return zh
      ? `${background}你是 ${name}，正在一个群聊里。其他成员：${others.join('、')}。想和某人说话时可以 @他的名字。发言时直接说内容，不要在前面写自己的名字。其他人的发言以「名字: 内容」的格式给出。`
      : `${background}You are ${name}, in a group chat. The others: ${others.join(', ')}. To talk to someone, write @ and their name. Say what you have to say directly, without your name in front. The others' lines are shown as "Name: text".`;
  }
}
