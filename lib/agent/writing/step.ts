// What Qwen-Agent's writing agents share: each is one prompt template around the conversation's last message and one
// model call. A step runs on its own (`new OutlineWriting({ llm }).runNonStream(messages)`), or inside another
// agent's run (WriteFromScratch, ArticleAgent), where its model call is one of that run's iterations.
import { contentText, type Lang, type Message } from '../../llm/schema';
import { Agent, type AgentOptions } from '../agent';
import type { RunState } from '../run-state';
import type { StopReason } from '../../protocol/enums';

/** What a step writes from: the reference text (ArticleAgent passes the passages its document search found). */
export interface WritingInput {
  knowledge?: string;
}

export interface WritingStepOptions extends AgentOptions, WritingInput {}

/** The text of the conversation's last message (what the user asked for: a title, or the text to continue). */
export function lastText(messages: readonly Message[]): string {
  const last = messages[messages.length - 1];
  return last ? contentText(last.content) : '';
}

/** The conversation with its last message replaced by `prompt` (the steps' prompts are single text messages). */
export function withLastPrompt(messages: readonly Message[], prompt: string): Message[] {
  const last = messages[messages.length - 1];
  const role = last?.role ?? 'user';
  return [...messages.slice(0, -1), { role, content: prompt }];
}

/** A heading between the steps of a writing run: an assistant message of its own, as upstream yields each. */
export function sayStep(run: RunState, text: string): void {
  run.emit({ type: 'text-delta', text, newMessage: true });
}

export abstract class WritingStep<I extends WritingInput = WritingInput> extends Agent {
  readonly input: I;

  constructor(opts: AgentOptions & I, defaultName: string) {
    super({ ...opts, name: opts.name ?? defaultName });
    this.input = opts;
  }

  /** The step's prompt for the user's request, in the run's language. */
  protected abstract prompt(request: string, input: I, lang: Lang): string;

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    await this.write(messages, run, this.input);
    return 'answered';
  }

  /** Makes the step's model call as the next iteration of `run`; returns what the model wrote. */
  async write(messages: Message[], run: RunState, input: I): Promise<string> {
    run.signal.throwIfAborted();
    run.iteration++;
    const prompt = this.prompt(lastText(messages), input, run.lang);
    const output = await this.callLlm(withLastPrompt(messages, prompt), [], run);
    return output.messages
      .filter((m) => m.role === 'assistant' && !m.function_call)
      .map((m) => contentText(m.content))
      .join('');
  }
}
