// BasicDocQA: Qwen-Agent's simple document QA. It searches the documents as the Assistant does (its ragCfg and keyword
// strategy included), puts the passages found into the system message under its own instruction to answer from
// them, and answers in one model call, offering no tools (as upstream, which never calls them).
import type { Lang, Message } from '../../llm/schema';
import type { AgentKind, StopReason } from '../../protocol/enums';
import { Assistant, type AssistantOptions } from '../assistant';
import type { RunState } from '../run-state';

const PROMPT: Record<Lang, (ref: string) => string> = {
  en: (ref) =>
    `Read the reference material below carefully and write a clear, well-organised answer to the user's question from it.\n# Reference material:\n${ref}`,
  zh: (ref) => `请仔细理解下面的参考资料，并依据它们写出条理清晰、满足用户提问的回答。\n# 参考资料：\n${ref}`,
};

export class BasicDocQA extends Assistant {
  static override readonly kind: AgentKind = 'basicdocqa';

  constructor(opts: AssistantOptions) {
    super({
      ...opts,
      description:
        opts.description ??
        'Answers from the passages of the documents that match the question: suited to questions about one detail ("what does Table 1 show").',
    });
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const found = await this.searchDocuments(messages, run);
    const { formatKnowledge } = await import('../../documents/search');
    const knowledge = found ? formatKnowledge(found.documents, run.lang, found.errors) : '';
    run.iteration = 1;
    await this.callLlm(withSystemText(messages, PROMPT[run.lang](knowledge)), [], run);
    return 'answered';
  }
}

/** The prompt after the system message (a system message of its own when there is none). */
function withSystemText(messages: Message[], text: string): Message[] {
  const [first, ...rest] = messages;
  if (first?.role !== 'system') return [{ role: 'system', content: text }, ...messages];
  const content =
    typeof first.content === 'string' ? `${first.content}\n\n${text}` : [...first.content, { text: `\n\n${text}` }];
  return [{ ...first, content }, ...rest];
}
