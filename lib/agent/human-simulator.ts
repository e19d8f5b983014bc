// HumanSimulator: Qwen-Agent's simulated user. The model plays the person talking to an assistant: from the
// conversation (with the roles swapped: its own lines are the assistant's), it proposes four things such a person
// might say next as a JSON list, and one of them is picked at random (seeded, so a run can be repeated). When it
// judges the conversation over, or writes anything but such a list, it says the stop marker instead, which ends a
// DialogueSimulator's dialogue.
import JSON5 from 'json5';
import { contentText, type Lang, type Message } from '../llm/schema';
import { SIMULATED_USER_STOP, type StopReason } from '../protocol/enums';
import { Agent, type AgentOptions } from './agent';
import { HeldText } from './held-text';
import type { RunState } from './run-state';

export { SIMULATED_USER_STOP };

export interface HumanSimulatorOptions extends AgentOptions {
  /** Which of the proposals is picked: the same seed picks the same one (upstream's default, 42). */
  seed?: number;
}

function simulatorPrompt(lang: Lang): string {
  if (lang === 'zh')
    return `我们来玩一个角色互换的游戏：你扮演人类用户，对方扮演 AI 助手。

# 规则
- 像一个普通用户那样提问、提要求。
- 问题要和给出的背景或之前的对话有关。
- 只输出一个 JSON 列表，里面是四个可能的问题，不要输出别的。
- 四个问题的难度、意图和措辞要各不相同。
- 如果你觉得对话可以结束了，直接输出 ["${SIMULATED_USER_STOP}"]，不要输出别的。`;
  return `Let us play a game of swapped roles: you are the human user, and the one you talk to is the AI assistant.

# Rules
- Ask questions and make requests as an ordinary person would.
- Keep to the context you were given or to the conversation so far.
- Output one JSON list of four questions you might ask next, and nothing else.
- Make the four differ in difficulty, in what they are after, and in wording.
- When you think the conversation can end, output ["${SIMULATED_USER_STOP}"] and nothing else.`;
}

function beginMessage(lang: Lang): string {
  return lang === 'zh'
    ? '请扮演一位人类用户，提出你的第一个请求。\n\n开始！'
    : 'Play the human user now, and make your first request.\n\nBegin!';
}

export class HumanSimulator extends Agent {
  readonly seed: number;
  /** Who the user is and what they want (systemMessage), told after the game's rules. */
  private readonly persona: string;

  constructor(opts: HumanSimulatorOptions) {
    super({ ...opts, name: opts.name ?? 'HumanSimulator', systemMessage: undefined });
    this.persona = opts.systemMessage ?? '';
    this.seed = opts.seed ?? 42;
  }

  protected override async loop(input: Message[], run: RunState): Promise<StopReason> {
    const own = [simulatorPrompt(run.lang), this.persona].filter(Boolean).join('\n\n');
    const systems = input.filter((m) => m.role === 'system').map((m) => contentText(m.content));
    let dialogue = input.filter((m) => m.role !== 'system');
    if (dialogue[0]?.role !== 'user') dialogue = [{ role: 'user', content: beginMessage(run.lang) }, ...dialogue];
    run.iteration = 1;
    const held = new HeldText();
    await this.callLlm([{ role: 'system', content: [own, ...systems].join('\n\n') }, ...dialogue], [], run, {
      text: held,
    });
    run.emit({ type: 'text-delta', text: pickProposal(held.text, this.seed) });
    return 'answered';
  }
}

/** One of the model's proposals, picked by `seed`; the stop marker when the reply is not a list of them. */
export function pickProposal(reply: string, seed: number): string {
  const list = jsonList(reply);
  if (!list?.length) return SIMULATED_USER_STOP;
  const picked = list[Math.floor(seededRandom(seed)() * list.length)];
  return typeof picked === 'string' && picked.trim() ? picked.trim() : SIMULATED_USER_STOP;
}

/** The JSON list a reply holds (code fences and words around it allowed), or undefined. */
function jsonList(reply: string): unknown[] | undefined {
  const start = reply.indexOf('[');
  const end = reply.lastIndexOf(']');
  if (start < 0 || end < start) return undefined;
  try {
    const value: unknown = JSON5.parse(reply.slice(start, end + 1));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** mulberry32: a small seeded generator (numbers in [0, 1)). */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
