// ReActChat: text-only ReAct (Thought / Action / Action Input / Observation / Final Answer) without function calling.
import {
  buildReactPrompt,
  detectReactAction,
  parseReactSteps,
  ReactPartSplitter,
  REACT_STOP_WORDS,
  type ReactPiece,
} from '../llm/fncall';
import { contentText, type ContentItem, type Lang, type Message } from '../llm/schema';
import { withUploadInfo } from '../llm/upload-info';
import type { AgentKind, StopReason } from '../protocol/enums';
import { Agent } from './agent';
import type { RunState } from './run-state';

export class ReActChat extends Agent {
  static override readonly kind: AgentKind = 'react';

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const { prompt, images } = this.withReactPrompt(messages, run.lang);
    const scratch = prompt[prompt.length - 1]!;
    // The scratchpad lives inside the last user turn, as upstream keeps it (its images stay for a model that sees).
    let scratchText = contentText(scratch.content);
    const extend = (more: string) => {
      scratchText += more;
      scratch.content = images.length ? [...images, { text: scratchText }] : scratchText;
    };
    // The transcript streams as text-delta events, each saying which part of a step it is, so a reader shows the
    // steps without parsing the transcript again.
    const splitter = new ReactPartSplitter();
    const say = (pieces: ReactPiece[]) => {
      for (const p of pieces) run.emit({ type: 'text-delta', text: p.text, part: p.part });
    };
    const text = { push: (t: string) => say(splitter.push(t)), end: () => say(splitter.flush()) };
    // Upstream's displayed response starts with "Thought: " (the prompt ends with it, so the model continues it).
    text.push('Thought: ');
    text.end();
    for (let budget = this.maxLlmCalls; budget > 0; budget--) {
      run.signal.throwIfAborted();
      run.iteration++;
      const output = await this.callLlm(prompt, [], run, { cfg: { stop: REACT_STOP_WORDS }, format: 'react', text });
      const said = output.messages
        .filter((m) => !m.function_call)
        .map((m) => contentText(m.content))
        .join('');
      const found = detectReactAction(said);
      if (!found) {
        const [step] = parseReactSteps(`Thought: ${said}`).slice(-1);
        // Upstream yields the reply as it is when it calls no tool: a reply without a Final Answer (small models
        // often skip the format) is the answer whole, not a thought.
        if (step?.finalAnswer !== undefined)
          run.emit({ type: 'react-step', thought: step.thought, finalAnswer: step.finalAnswer });
        else run.emit({ type: 'react-step', thought: '', finalAnswer: said.trim(), plainReply: true });
        return 'answered';
      }
      const call = { functionId: String(run.iteration), name: found.action, arguments: found.actionInput };
      run.emit({ type: 'tool-call', ...call });
      // File-aware tools get the files of the conversation as it was given (the prompt holds only their names).
      const content = await this.callTool(call, messages, run);
      const observation = typeof content === 'string' ? content : contentText(content);
      const appended = `${said.endsWith('\n') ? '' : '\n'}Observation: ${observation}\nThought: `;
      text.push(appended);
      text.end();
      // The step as upstream writes it back: the thought, then the Action and Action Input it parsed (an input in a
      // code block on a line of its own), then the observation.
      extend(
        `${found.thought}\nAction: ${found.action}\nAction Input: ${found.actionInput}\nObservation: ${observation}\nThought: `,
      );
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

  /**
   * The last message (the question) becomes the ReAct prompt with the tools and the question in it. The question
   * names its files the way upstream writes uploads ("(Uploaded [file](data.csv)) …") inside the prompt; its images
   * stay as images for a model that sees them (the model layer notes them for one that does not).
   */
  private withReactPrompt(messages: Message[], lang: Lang): { prompt: Message[]; images: ContentItem[] } {
    const last = messages[messages.length - 1];
    if (!last || last.role !== 'user') throw new Error('ReActChat needs the conversation to end with a user message.');
    const items = typeof last.content === 'string' ? [] : last.content;
    const images = items.filter((i) => i.image);
    const withoutImages: Message = { ...last, content: items.length ? items.filter((i) => !i.image) : last.content };
    const query = contentText(withUploadInfo([withoutImages], { lang, keepImages: false })[0]!.content);
    const promptText = buildReactPrompt(this.functions, query, 'en'); // upstream's ReAct prompt is English only
    const content = images.length ? [...images, { text: promptText }] : promptText;
    return { prompt: [...messages.slice(0, -1), { ...last, content }], images };
  }
}
