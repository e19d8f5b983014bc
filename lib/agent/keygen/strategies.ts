// Qwen-Agent's keyword strategies: agents that turn a question into what a document search looks for. Each takes
// the question as the last message and answers with JSON; an Assistant whose ragCfg names one (rag_keygen_strategy)
// runs it before its search, and searches for the keywords and the question's own words (lib/documents/search
// reads that JSON).
// - GenKeyword: one call writes {"keywords_zh": [...], "keywords_en": [...]}.
// - SplitQuery: one call separates what to look for from what to do, {"information": [...], "instruction": [...]}.
// - SplitQueryThenGenKeyword: SplitQuery, then GenKeyword on the information alone (when it is shorter than the
//   question), then the keywords with that information as "text".
// - The WithKnowledge variants show the model the documents' vocabulary, so that its keywords are the documents' words.
import { countTokens, truncateTokens } from '../../llm/tokens';
import { contentText, type Message } from '../../llm/schema';
import { pyJsonDumps } from '../../llm/fncall/json-slice';
import type { StopReason } from '../../protocol/enums';
import { parseOptions, ragSettings } from '../../../tools/retrieval';
import { Agent, type AgentOptions } from '../agent';
import { documentRefs, localFiles, runFileNames } from '../run-files';
import type { RunState } from '../run-state';
import { inputBudget } from '../virtual-memory';
import { lastText, withLastPrompt } from '../writing/step';
import { parseKeywordJson, splitQueryInformation } from './keyword-json';
import { keywordPrompt, knowledgeKeywordPrompt, splitQueryPrompt } from './prompts';

/** GenKeyword's stop word: its examples end each answer with an "Observation:" line. */
export const KEYWORD_STOP = ['Observation:'];
/** SplitQuery stops before the instruction part, which nothing uses (the JSON is closed after it). */
export const SPLIT_QUERY_STOP = ['"], "instruction":'];
/** Tokens kept free of the vocabulary besides the prompt and the question (upstream's margin). */
const VOCABULARY_MARGIN = 100;

export interface KeygenOptions extends AgentOptions {
  /** Chunk size the documents are read at for their vocabulary (default: the retrieval default, so an Assistant's
   *  search shares the parse). */
  parserPageSize?: number;
}

/** What the strategies share: a model call as the run's next iteration, and the keyword prompt. */
export abstract class KeygenStrategy extends Agent {
  /** The strategy's name (upstream's class name), also its agent name unless one is given. */
  static readonly strategyName: string = 'GenKeyword';
  readonly parserPageSize?: number;

  constructor(opts: KeygenOptions) {
    super({ ...opts, name: opts.name ?? (new.target as typeof KeygenStrategy).strategyName });
    if (opts.parserPageSize) this.parserPageSize = opts.parserPageSize;
  }

  /** One model call with `prompt` in place of the last message; returns the text it wrote. */
  protected async ask(messages: Message[], prompt: string, stop: string[], run: RunState): Promise<string> {
    run.signal.throwIfAborted();
    run.iteration++;
    const output = await this.callLlm(withLastPrompt(messages, prompt), [], run, { cfg: { stop } });
    return output.messages
      .filter((m) => m.role === 'assistant' && !m.function_call)
      .map((m) => contentText(m.content))
      .join('');
  }

  /** SplitQuery's call; its JSON closed when generation stopped before the instruction part. Returns the JSON. */
  protected async splitQuery(messages: Message[], run: RunState): Promise<string> {
    const text = await this.ask(messages, splitQueryPrompt(lastText(messages), run.lang), SPLIT_QUERY_STOP, run);
    const trimmed = text.trim();
    const opened = trimmed.startsWith('{') || trimmed.startsWith('```');
    if (!opened || trimmed.endsWith('}') || trimmed.endsWith('```')) return text;
    const closing = '"]}';
    run.emit({ type: 'text-delta', text: closing });
    return text + closing;
  }

  /** The keyword prompt for `question`; the knowledge variants add the documents' vocabulary. */
  protected keywordPrompt(question: string, _messages: Message[], run: RunState): Promise<string> {
    return Promise.resolve(keywordPrompt(question, run.lang));
  }
}

export class GenKeyword extends KeygenStrategy {
  static override readonly strategyName: string = 'GenKeyword';

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const question = lastText(messages);
    await this.ask(messages, await this.keywordPrompt(question, messages, run), KEYWORD_STOP, run);
    return 'answered';
  }
}

export class GenKeywordWithKnowledge extends GenKeyword {
  static override readonly strategyName: string = 'GenKeywordWithKnowledge';

  protected override keywordPrompt(question: string, messages: Message[], run: RunState): Promise<string> {
    return promptWithVocabulary(this, question, messages, run);
  }
}

export class SplitQuery extends GenKeyword {
  static override readonly strategyName: string = 'SplitQuery';

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    await this.splitQuery(messages, run);
    return 'answered';
  }
}

export class SplitQueryThenGenKeyword extends KeygenStrategy {
  static override readonly strategyName: string = 'SplitQueryThenGenKeyword';

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const question = lastText(messages);
    const information = splitQueryInformation(await this.splitQuery(messages, run));
    // The information is searched for instead of the question when it is shorter (the instruction left out).
    const query = information && information.length <= question.length ? information : question;
    const asked: Message[] = [{ role: 'user', content: query }];
    const prompt = await this.keywordPrompt(query, messages, run); // the conversation's files, for the vocabulary
    const keywords = parseKeywordJson(await this.ask(asked, prompt, KEYWORD_STOP, run));
    // The strategy's answer: the keywords with the text searched for, a message of its own (upstream yields it last).
    if (keywords) run.emit({ type: 'text-delta', text: pyJsonDumps({ ...keywords, text: query }), newMessage: true });
    return 'answered';
  }
}

export class SplitQueryThenGenKeywordWithKnowledge extends SplitQueryThenGenKeyword {
  static override readonly strategyName: string = 'SplitQueryThenGenKeywordWithKnowledge';

  protected override keywordPrompt(question: string, messages: Message[], run: RunState): Promise<string> {
    return promptWithVocabulary(this, question, messages, run);
  }
}

/** The knowledge prompt: the documents' vocabulary, cut to what the model's input leaves after the prompt. */
async function promptWithVocabulary(
  agent: KeygenStrategy,
  question: string,
  messages: Message[],
  run: RunState,
): Promise<string> {
  const { files } = await localFiles(
    documentRefs(agent.files, messages),
    run,
    agent.toolSettings,
    'keygen',
    runFileNames(agent.files, messages),
  );
  const { loadIndexes, documentVocabulary } = await import('../../documents/search');
  const pageSize = agent.parserPageSize ?? ragSettings({}, agent.toolSettings).parserPageSize;
  const { docs } = await loadIndexes(files, pageSize, parseOptions(agent.toolSettings));
  const words = documentVocabulary(docs).join(', ');
  const room =
    inputBudget(agent.llm, run) - countTokens(knowledgeKeywordPrompt(question, '', run.lang)) - VOCABULARY_MARGIN;
  return knowledgeKeywordPrompt(question, room > 0 ? wholeWords(truncateTokens(words, room), words) : '', run.lang);
}

/** A cut list of words without the word the cut split. */
function wholeWords(cut: string, all: string): string {
  if (cut.length === all.length) return cut;
  const at = cut.lastIndexOf(', ');
  return at > 0 ? cut.slice(0, at) : '';
}
