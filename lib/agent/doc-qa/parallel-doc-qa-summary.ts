// ParallelDocQASummary: Qwen-Agent's last step of ParallelDocQA. One model call answers the question from the
// knowledge gathered (the readers' findings and the passages found), citing pages as the knowledge marks them. It runs
// on its own (`new ParallelDocQASummary({ llm, knowledge }).runNonStream(messages)`, or the run's `knowledge`
// option as upstream's keyword argument), or inside ParallelDocQA's run, where its call is one of that run's
// iterations and its text the answer.
import type { Lang, Message } from '../../llm/schema';
import type { StopReason } from '../../protocol/enums';
import { Agent, type AgentOptions } from '../agent';
import { lastUserQuestion } from '../run-files';
import type { RunState } from '../run-state';
import { systemWith } from './system-with';

export interface ParallelDocQASummaryOptions extends AgentOptions {
  /** What to answer from: a "# Knowledge Base" block, or any text. */
  knowledge?: string;
}

const SYSTEM: Record<Lang, string> = {
  en: `Answer only from the Knowledge Base below.
Your answer must keep strictly to the Knowledge Base, even where it contradicts what you know.
When most of it does not concern the question and only a few sentences do, answer from those sentences: do answer in that case.
Cite the page each fact comes from as the Knowledge Base marks it, for example [page: 12].`,
  zh: `只依据下面的知识库回答。
你的回答必须严格依照知识库的内容，即使与你所知的事实不符。
如果知识库的大部分内容与问题无关，只有少数几句直接相关，就依据这几句回答，这种情况一定要回答。
按知识库中的标记注明每条信息出自哪一页，例如 [page: 12]。`,
};

function closing(question: string, lang: Lang): string {
  return lang === 'zh'
    ? `# 问题\n${question}\n\n\n# 回答规则\n- 只依据知识库的内容回答，即使与你所知的事实不符。\n- 如果只有少数几句与问题相关，就依据这几句回答，一定要回答。\n- 按知识库中的标记注明页码，例如 [page: 12]。\n\n请回答：`
    : `# Question\n${question}\n\n\n# How to answer\n- Answer only from the Knowledge Base, even where it contradicts what you know.\n- When only a few sentences of it concern the question, answer from those: do answer.\n- Cite pages as the Knowledge Base marks them, for example [page: 12].\n\nYour answer:`;
}

/** The summary's request: the instructions and the knowledge after the system message, the last user message
 *  replaced by the question and the rules. */
export function summaryMessages(messages: readonly Message[], knowledge: string, lang: Lang): Message[] {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') throw new Error('The summary answers a question: the last message must be the user’s.');
  const block = knowledge.trim() ? `${SYSTEM[lang]}\n\n${knowledge.trim()}` : SYSTEM[lang];
  const [system, body] = systemWith(messages, block);
  return [system, ...body.slice(0, -1), { role: 'user', content: closing(lastUserQuestion(messages), lang) }];
}

/** The tokens the summary's instructions take besides the knowledge (to size what goes into it). */
export function summaryOverhead(question: string, lang: Lang): string {
  return `${SYSTEM[lang]}\n\n${closing(question, lang)}`;
}

export class ParallelDocQASummary extends Agent {
  readonly knowledge: string;

  constructor(opts: ParallelDocQASummaryOptions) {
    super({ ...opts, name: opts.name ?? 'ParallelDocQASummary' });
    this.knowledge = opts.knowledge ?? '';
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    await this.summarize(messages, run.options.knowledge ?? this.knowledge, run);
    return 'answered';
  }

  /** The summary's model call as the next iteration of `run` (its own run, or ParallelDocQA's). */
  async summarize(messages: readonly Message[], knowledge: string, run: RunState): Promise<void> {
    run.signal.throwIfAborted();
    run.iteration++;
    await this.callLlm(summaryMessages(messages, knowledge, run.lang), [], run);
  }
}
