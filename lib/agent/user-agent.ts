// UserAgent: Qwen-Agent's stand-in for the real user among agents. Run, it says only that the user is to speak next
// (a user message holding the PENDING_USER_INPUT marker), and the caller hands the turn to the person. A GroupChat
// given one among its agents takes it as its user member (GroupChatOptions.user).
import type { ChatModel } from '../llm/model';
import type { Message } from '../llm/schema';
import { PENDING_USER_INPUT, type StopReason } from '../protocol/enums';
import { Agent, type AgentOptions } from './agent';
import type { RunState } from './run-state';

export { PENDING_USER_INPUT };

/** A UserAgent calls no model: this one says so if anything tries. */
const NO_MODEL: ChatModel = {
  model: 'none',
  fncallMode: 'native',
  chat: () => Promise.reject(new Error('A UserAgent calls no model: the person it stands for answers.')),
};

export interface UserAgentOptions extends Omit<AgentOptions, 'llm'> {
  llm?: AgentOptions['llm'];
}

export class UserAgent extends Agent {
  constructor(opts: UserAgentOptions = {}) {
    super({ ...opts, llm: opts.llm ?? NO_MODEL, name: opts.name ?? 'user' });
  }

  protected override async loop(_messages: Message[], run: RunState): Promise<StopReason> {
    run.emit({ type: 'text-delta', text: PENDING_USER_INPUT, newMessage: true, role: 'user' });
    return 'answered';
  }
}
