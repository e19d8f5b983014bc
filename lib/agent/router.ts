// Router: Qwen-Agent's Router. An Assistant that holds helper agents: its model either answers the user itself or
// writes `Call: <helper>` (generation stops at `Reply:`), and then the helper answers the whole conversation as a
// child run whose messages carry the helper's name. Earlier answers of a helper are shown to the router as
// `Call: <name>\nReply:<answer>`, so it sees who answered.
import { contentText, type Lang, type Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import { CodedError } from '../protocol/errors';
import type { Agent, CallExtras, TextSink } from './agent';
import { Assistant, type AssistantOptions } from './assistant';
import { runChild } from './child-run';
import type { RunState } from './run-state';

/** The router's protocol, as upstream writes it: the helper's name after CALL, generation stops at a REPLY. */
export const ROUTER_CALL = 'Call:';
export const ROUTER_STOP_WORDS = ['Reply:', 'Reply:\n'];

export interface RouterOptions extends AssistantOptions {
  /** The helpers, by their (unique, non-empty) names; their descriptions tell the router what each does. */
  agents: readonly Agent[];
}

export class Router extends Assistant {
  static override readonly kind: AgentKind = 'router';
  readonly agents: readonly Agent[];
  /** The router's own instructions, given to its model calls only (helpers see the conversation as it came). */
  private readonly instructions: string;
  private readonly sinks = new WeakMap<RunState, CallSplitter>();

  constructor(opts: RouterOptions) {
    super({ ...opts, systemMessage: undefined });
    this.agents = checkNames(opts.agents, 'Router');
    this.instructions = opts.systemMessage ?? '';
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const sink = new CallSplitter((text) => run.emit({ type: 'text-delta', text }));
    this.sinks.set(run, sink);
    const helpers = new Set(this.agents.map((a) => a.name));
    const forRouter = withSystem(
      messages.map((m) => showWhoAnswered(m, helpers)),
      routerPrompt(this.agents, run.lang, this.instructions),
    );
    const own = await super.loop(forRouter, run);
    const called = sink.called;
    if (own !== 'answered' || called === undefined) return own;
    const name = called.split('\n')[0]!.trim();
    const helper =
      this.agents.find((a) => a.name === name) ?? this.agents.find((a) => a.name.toLowerCase() === name.toLowerCase());
    const chosen = helper ?? this.agents[0]!;
    run.emit({ type: 'handoff', round: 1, to: chosen.name, reason: helper ? 'call' : 'fallback' });
    const outcome = await runChild(chosen, messages, run);
    return outcome.end.reason === 'max-iterations' ? 'max-iterations' : 'answered';
  }

  protected override callExtras(run: RunState): CallExtras {
    return { cfg: { stop: ROUTER_STOP_WORDS }, text: this.sinks.get(run) };
  }
}

/** Agents that hold others need them named, each name once (upstream's MultiAgentHub). Two saved agents may share a
 *  name, so a Router or GroupChat saved with both is refused when a run builds it: a refusal (coded, HTTP 400) of the
 *  agent as it is saved, which its owner fixes by renaming one. */
export function checkNames(agents: readonly Agent[], holder: string): readonly Agent[] {
  if (!agents.length) throw new Error(`A ${holder} needs at least one agent.`);
  const seen = new Set<string>();
  for (const a of agents) {
    if (!a.name.trim()) throw new Error(`Every agent of a ${holder} needs a name.`);
    if (seen.has(a.name))
      throw new CodedError(
        'agent-names-twice',
        `Two agents of this ${holder} are named "${a.name}"; names must differ: rename one of them.`,
        { holder, name: a.name },
      );
    seen.add(a.name);
  }
  return agents;
}

function routerPrompt(agents: readonly Agent[], lang: Lang, instructions: string): string {
  const list = agents.map((a) => `${a.name}: ${a.description || '-'}`).join('\n\n');
  const names = agents.map((a) => a.name).join(', ');
  const prompt =
    lang === 'zh'
      ? `你可以请下面这些帮手来回答：\n${list}\n\n能自己回答用户时就直接回答，不用理会帮手。需要帮手时，只写下面两行，第一行写帮手的名字（必须是 [${names}] 之一），不写别的：\n${ROUTER_CALL} 帮手的名字\n${ROUTER_STOP_WORDS[0]} 帮手的回答\n\n不要向用户提起这段说明。`
      : `You can hand the question to one of these helpers:\n${list}\n\nWhen you can answer the user yourself, answer directly and ignore the helpers. When one of them should answer, write only these two lines, with the helper's name (one of [${names}]) and nothing else on the first:\n${ROUTER_CALL} the helper's name\n${ROUTER_STOP_WORDS[0]} the helper's answer\n\nDo not tell the user about these instructions.`;
  return instructions ? `${prompt}\n\n${instructions}` : prompt;
}

function withSystem(messages: Message[], text: string): Message[] {
  const first = messages[0];
  if (first?.role !== 'system') return [{ role: 'system', content: text }, ...messages];
  const content =
    typeof first.content === 'string' ? `${text}\n\n${first.content}` : [{ text: `${text}\n\n` }, ...first.content];
  return [{ ...first, content }, ...messages.slice(1)];
}

/** A helper's earlier answer as the router's model sees it (its tool calls and their results stay as they are). */
function showWhoAnswered(m: Message, helpers: ReadonlySet<string>): Message {
  if (m.role !== 'assistant' || !m.name || !helpers.has(m.name) || m.function_call) return m;
  const prefix = `${ROUTER_CALL} ${m.name}\n${ROUTER_STOP_WORDS[0]}`;
  if (typeof m.content === 'string') return m.content ? { ...m, content: prefix + m.content } : m;
  if (!contentText(m.content)) return m;
  let done = false;
  const content = m.content.map((item) => {
    if (done || item.text === undefined) return item;
    done = true;
    return { text: prefix + item.text };
  });
  return { ...m, content };
}

/**
 * The router's text as it streams: passed on as the router's own words, except from a `Call:` on (the helper's
 * name, which the page does not show as an answer). A tail that may still become `Call:` is held back until the
 * next piece or the end of the call says.
 */
export class CallSplitter implements TextSink {
  /** What followed `Call:`, once the model wrote it. */
  called?: string;
  private held = '';
  private all = '';
  /** The last call ended: the next piece starts another (only the last call's `Call:` counts). */
  private ended = false;

  constructor(private readonly say: (text: string) => void) {}

  push(text: string): void {
    if (this.ended) {
      this.ended = false;
      this.called = undefined;
      this.all = '';
    }
    this.all += text;
    if (this.called !== undefined) {
      this.called += text;
      return;
    }
    const buffer = this.held + text;
    const at = buffer.indexOf(ROUTER_CALL);
    if (at >= 0) {
      this.held = '';
      if (at > 0) this.say(buffer.slice(0, at));
      this.called = buffer.slice(at + ROUTER_CALL.length);
      return;
    }
    const keep = partialTail(buffer, ROUTER_CALL);
    this.held = buffer.slice(buffer.length - keep);
    const out = buffer.slice(0, buffer.length - keep);
    if (out) this.say(out);
  }

  end(): void {
    if (this.held) this.say(this.held);
    this.held = '';
    this.ended = true;
  }

  withheld(): string | undefined {
    return this.called !== undefined ? this.all : undefined;
  }
}

/** The length of the longest end of `text` that is a start of `marker`. */
function partialTail(text: string, marker: string): number {
  for (let n = Math.min(text.length, marker.length - 1); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}
