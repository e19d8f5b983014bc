// ReActChat: text-only ReAct (Thought / Action / Action Input / Observation / Final Answer) without function calling.
import { buildReactPrompt, detectReactAction, parseReactSteps, REACT_STOP_WORDS } from '../llm/fncall';
import { contentText, type Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import { Agent } from './agent';
import type { RunState } from './run-state';

export class ReActChat extends Agent {
  static override readonly kind: AgentKind = 'react';

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const prompt = this.withReactPrompt(messages);
    const scratch = prompt[prompt.length - 1]!;
    // Upstream's displayed response starts with "Thought: " (the prompt ends with it, so the model continues it).
    run.emit({ type: 'text-delta', text: 'Thought: ' });
    for (let budget = this.maxLlmCalls; budget > 0; budget--) {
      run.signal.throwIfAborted();
      run.iteration++;
      const output = await this.callLlm(prompt, [], run, { cfg: { stop: REACT_STOP_WORDS }, format: 'react' });
      const text = output.messages
        .filter((m) => !m.function_call)
        .map((m) => contentText(m.content))
        .join('');
      const found = detectReactAction(text);
      if (!found) {
        const [step] = parseReactSteps(`Thought: ${text}`).slice(-1);
        run.emit({
          type: 'react-step',
          thought: step?.thought ?? text.trim(),
          ...(step?.finalAnswer !== undefined ? { finalAnswer: step.finalAnswer } : {}),
        });
        return 'answered';
      }
      const call = { functionId: String(run.iteration), name: found.action, arguments: found.actionInput };
      run.emit({ type: 'tool-call', ...call });
      const content = await this.callTool(call, prompt, run);
      const observation = typeof content === 'string' ? content : contentText(content);
      const appended = `${text.endsWith('\n') ? '' : '\n'}Observation: ${observation}\nThought: `;
      run.emit({ type: 'text-delta', text: appended });
      // The scratchpad lives inside the last user turn, as upstream keeps it.
      scratch.content = `${contentText(scratch.content)}${text}${appended}`;
      run.emit({
        type: 'react-step',
        thought: found.thought.trim(),
        action: found.action,
        actionInput: found.actionInput,
        observation,
      });
    }
    return 'max-iterations';
  }

  /** The last message (the question) becomes the ReAct prompt with the tools and the question in it. */
  private withReactPrompt(messages: Message[]): Message[] {
    const last = messages[messages.length - 1];
    if (!last || last.role !== 'user') throw new Error('ReActChat needs the conversation to end with a user message.');
    const lang = 'en'; // upstream's ReAct prompt is English only
    const query = contentText(last.content);
    const files = typeof last.content === 'string' ? [] : last.content.filter((i) => i.text === undefined);
    const promptText = buildReactPrompt(this.functions, query, lang);
    const content = files.length ? [...files, { text: promptText }] : promptText;
    return [...messages.slice(0, -1), { ...last, content }];
  }
}
