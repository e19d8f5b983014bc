// ParallelDocQAMember: Qwen-Agent's reader of one excerpt. It is asked whether the excerpt answers the question and
// answers in JSON ({"res": "ans", "content": ...} or {"res": "none", "content": "<None>"}), generation stopping at
// "Observation:" as its prompt's examples end. Upstream reads one excerpt per run; here a run reads a list of them,
// one model call each in order (ParallelDocQA gives each reader a group of chunks, so the trace holds one nested run
// per group), each announced by its label when it has one. One excerpt is upstream's member exactly.
import type { Lang, Message } from '../../llm/schema';
import type { StopReason } from '../../protocol/enums';
import { Agent, type AgentOptions } from '../agent';
import { lastUserQuestion } from '../run-files';
import type { RunState } from '../run-state';
import { NO_RESPONSE } from './reader-output';
import { systemWith } from './system-with';

export const READER_STOP = ['Observation:', 'Observation:\n'];

/** An excerpt to read, and what the trace calls it ("Chunk 3 of 120, page 7"). */
export interface ReaderChunk {
  text: string;
  label?: string;
}

export interface ParallelDocQAMemberOptions extends AgentOptions {
  /** The excerpts, read one model call each (upstream's `knowledge`). */
  chunks?: readonly (string | ReaderChunk)[];
  /** The question (upstream's `instruction`); default: the text of the last user message. */
  question?: string;
}

const SYSTEM: Record<Lang, string> = {
  en: `You answer questions about documents from the excerpt you are given.


# Task
Read the document excerpt carefully and decide whether it answers the question. Do not force an answer. When it does answer it, answer strictly from the excerpt, even where the excerpt contradicts what you know, and give the answer without explaining.


# Rules
- Answer in the language of the excerpt.
- Judge whether the excerpt holds enough to answer the question; when it is unrelated, do not answer.
- When you answer, keep strictly to what the excerpt says and add no explanations.
- When you answer, quote the relevant words of the excerpt, so that the answer is accurate and complete, and keep it short.
- When only a little of the excerpt concerns the question, answer from that little: do answer in that case.


# Format
Answer with JSON.


## Examples
When the excerpt does not concern the question:
{"res": "none", "content": "${NO_RESPONSE}"}
Observation: ...

When the excerpt answers the question:
{"res": "ans", "content": "[your answer]"}
Observation: ...`,
  zh: `你根据给出的文档片段回答关于文档的问题。


# 任务
仔细阅读文档片段，判断它能否回答问题，不要勉强作答。能回答时，答案必须严格依据片段内容，即使与你所知的事实不符，也直接给出答案，不作解释。


# 规则
- 用片段所用的语言回答。
- 判断片段中的信息是否足以回答问题；片段与问题无关时不要回答。
- 回答时严格依照片段内容，不要添加解释。
- 回答时引用片段中的相关原文，保证答案准确、完整，并尽量简洁。
- 片段中只有少量内容与问题相关时，就依据这部分内容回答，这种情况一定要回答。


# 格式
用 JSON 回答。


## 示例
片段与问题无关时：
{"res": "none", "content": "${NO_RESPONSE}"}
Observation: ...

片段能回答问题时：
{"res": "ans", "content": "你的答案"}
Observation: ...`,
};

function readerPrompt(excerpt: string, question: string, lang: Lang): string {
  return lang === 'zh'
    ? `# 文档：\n${excerpt}\n\n# 问题：\n${question}\n\n请按照规则回答：`
    : `# Document:\n${excerpt}\n\n# Question:\n${question}\n\nAnswer following the rules:`;
}

/** The conversation as one reader sees it: the reading rules added to the system message, the last message
 *  replaced by the excerpt and the question. */
export function readerMessages(messages: readonly Message[], excerpt: string, question: string, lang: Lang): Message[] {
  const rules = SYSTEM[lang];
  const [system, body] = systemWith(messages, rules);
  return [system, ...body.slice(0, -1), { role: 'user', content: readerPrompt(excerpt, question, lang) }];
}

/** The tokens a reader's prompt takes besides the excerpt (to size the chunks to the model's input). */
export function readerOverhead(question: string, lang: Lang): string {
  return `${SYSTEM[lang]}\n\n${readerPrompt('', question, lang)}`;
}

export class ParallelDocQAMember extends Agent {
  readonly chunks: readonly ReaderChunk[];
  readonly question?: string;

  constructor(opts: ParallelDocQAMemberOptions) {
    const chunks = (opts.chunks ?? []).map((c) => (typeof c === 'string' ? { text: c } : c));
    // One model call per excerpt: the run's limit is the number of excerpts.
    super({
      ...opts,
      name: opts.name ?? 'ParallelDocQAMember',
      maxLlmCalls: opts.maxLlmCalls ?? Math.max(1, chunks.length),
    });
    this.chunks = chunks;
    if (opts.question !== undefined) this.question = opts.question;
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    if (messages[messages.length - 1]?.role !== 'user')
      throw new Error(`${this.name} reads for a question: the last message must be the user's.`);
    const question = this.question ?? lastUserQuestion(messages);
    for (const chunk of this.chunks) {
      run.signal.throwIfAborted();
      if (chunk.label) run.emit({ type: 'text-delta', text: chunk.label, newMessage: true });
      run.iteration++;
      await this.callLlm(readerMessages(messages, chunk.text, question, run.lang), [], run, {
        cfg: { stop: READER_STOP },
      });
    }
    return 'answered';
  }
}
