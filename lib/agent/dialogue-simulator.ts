// DialogueSimulator: Qwen-Agent's test of an agent against a simulated user. The user agent (a HumanSimulator, or
// any agent) and the assistant agent take turns for at most maxRound rounds, each as a child run: the user agent sees
// the dialogue with the roles swapped and speaks as the user; the assistant answers the dialogue as it is. The
// dialogue ends early when the simulated user says the stop marker. The run's messages are the dialogue's new ones:
// the user's lines as user messages, the assistant's answers (with its tool calls) as they came.
import { contentText, type Message } from '../llm/schema';
import { SIMULATED_USER_STOP, type StopReason } from '../protocol/enums';
import { Agent, type AgentOptions } from './agent';
import { runChild } from './child-run';
import type { RunState } from './run-state';

export interface DialogueSimulatorOptions extends Omit<AgentOptions, 'llm'> {
  /** Who plays the user (upstream: a HumanSimulator). */
  userAgent: Agent;
  /** The agent under test. */
  assistantAgent: Agent;
  /** Rounds of one user line and one answer (upstream's default, 5). */
  maxRound?: number;
  /** Reported in run-start only (default: the assistant's model); the simulator makes no model call itself. */
  llm?: AgentOptions['llm'];
}

export class DialogueSimulator extends Agent {
  readonly userAgent: Agent;
  readonly assistantAgent: Agent;
  readonly maxRound: number;

  constructor(opts: DialogueSimulatorOptions) {
    super({ ...opts, llm: opts.llm ?? opts.assistantAgent.llm, name: opts.name ?? 'DialogueSimulator' });
    if (opts.userAgent.name === opts.assistantAgent.name)
      throw new Error(`The simulated user and the assistant are both named "${opts.userAgent.name}".`);
    this.userAgent = opts.userAgent;
    this.assistantAgent = opts.assistantAgent;
    this.maxRound = Math.max(1, Math.floor(opts.maxRound ?? 5));
  }

  protected override async loop(input: Message[], run: RunState): Promise<StopReason> {
    const dialogue = [...input];
    for (let round = 1; round <= this.maxRound; round++) {
      run.signal.throwIfAborted();
      if (dialogue[dialogue.length - 1]?.role !== 'user') {
        run.emit({ type: 'handoff', round, to: this.userAgent.name, user: true, reason: 'round_robin' });
        const said = await runChild(this.userAgent, swapRoles(dialogue), run, { asUser: true });
        const line = lastText(said.messages);
        if (!line || line.includes(SIMULATED_USER_STOP)) {
          run.emit({ type: 'handoff', round, reason: 'stop' });
          break;
        }
        dialogue.push({ role: 'user', content: line, name: this.userAgent.name });
      }
      run.emit({ type: 'handoff', round, to: this.assistantAgent.name, reason: 'round_robin' });
      const answer = await runChild(this.assistantAgent, dialogue, run);
      dialogue.push(...answer.messages);
    }
    return 'answered';
  }
}

/** The dialogue as the simulated user sees it (upstream's _swap_roles): the user's lines are its answers, the
 *  assistant's answers (without their tool steps) its questions; system messages stay, empty messages go. */
export function swapRoles(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role === 'function') continue;
    const { function_call: _call, reasoning_content: _reasoning, ...rest } = m;
    const swapped: Message =
      m.role === 'user'
        ? { ...rest, role: 'assistant' }
        : m.role === 'assistant'
          ? { ...rest, role: 'user' }
          : { ...rest };
    if (contentText(swapped.content).trim() || Array.isArray(swapped.content)) out.push(swapped);
  }
  return out;
}

/** The text of the last message with any. */
function lastText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = contentText(messages[i]!.content).trim();
    if (text) return text;
  }
  return '';
}
