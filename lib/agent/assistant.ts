// Assistant: Qwen-Agent's FnCallAgent with documents. Before the loop it searches the files of the conversation
// (and the agent's own files) for the user's last question, appends a "# Knowledge Base" block with the passages to
// the system message, and reports the search as a retrieval event. Keywords come from the question itself (stop
// words out, stems in): no extra model call, where upstream's default asks the model to write keywords first; a
// ragCfg naming a keyword strategy (rag_keygen_strategy) runs it first, as a child run aside.
import { ragSettings, type RagSettings } from '../../tools/retrieval';
import type { RetrievedDocument } from '../documents/search';
import { contentText, type Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import type { AgentOptions } from './agent';
import { runChild } from './child-run';
import { FnCallAgent } from './fncall-agent';
import { keygenAgent, keygenStrategyName, keywordQuery, type KeygenStrategyName } from './keygen';
import { documentRefs, lastUserQuestion, localFiles, runFileNames } from './run-files';
import type { RunState } from './run-state';

/** Qwen-Agent's rag_cfg, by its keys. */
export interface RagCfg {
  /** Tokens of passages per prompt (default RAG_MAX_REF_TOKEN, 20000). */
  max_ref_token?: number;
  /** Tokens per chunk (default RAG_PARSER_PAGE_SIZE, 500). */
  parser_page_size?: number;
  /** The keyword strategy run before the search: 'none' (the default here) or one of upstream's class names. */
  rag_keygen_strategy?: KeygenStrategyName | 'none' | 'None';
  /** The searches that rank the chunks, by upstream's names (default keyword_search and front_page_search);
   *  vector_search and hybrid_search embed through the agent's model connection. */
  rag_searchers?: string[];
  /** The model the connection embeds with (default RAG_EMBEDDING_MODEL, else the chat model's name). */
  embedding_model?: string;
}

export interface AssistantOptions extends AgentOptions {
  /** Qwen-Agent's rag_cfg: `max_ref_token`, `parser_page_size`, `rag_keygen_strategy`, `rag_searchers`. A strategy
   *  or searcher this version does not have is refused here, when the agent is made. */
  ragCfg?: RagCfg;
}

export class Assistant extends FnCallAgent {
  static override readonly kind: AgentKind = 'assistant';
  readonly ragCfg: Record<string, unknown>;
  /** The keyword strategy its searches run first ('none': the question's own words). */
  readonly keygenStrategy: KeygenStrategyName | 'none';

  constructor(opts: AssistantOptions) {
    super(opts);
    this.ragCfg = { ...opts.ragCfg };
    this.keygenStrategy = keygenStrategyName(this.ragCfg.rag_keygen_strategy, this.toolSettings.rag.keygenStrategy);
    ragSettings(this.ragCfg, this.toolSettings); // refuses searchers it cannot use, now rather than at the first question
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    return super.loop(await this.withKnowledge(messages, run), run);
  }

  /** The messages with the knowledge block in the system message (unchanged when there are no documents). */
  private async withKnowledge(messages: Message[], run: RunState): Promise<Message[]> {
    // Knowledge the caller gives is used as it is, and the files are not searched (upstream's `knowledge=`; empty
    // knowledge searches, as there).
    if (run.options.knowledge) {
      const { formatGivenKnowledge } = await import('../documents/search/knowledge');
      return withBlock(messages, formatGivenKnowledge(run.options.knowledge, run.lang));
    }
    const found = await this.searchDocuments(messages, run);
    if (!found) return messages;
    const { formatKnowledge } = await import('../documents/search');
    // Files that are not documents at all (an image, a script) are left out of the block silently, as upstream.
    return withBlock(messages, formatKnowledge(found.documents, run.lang, found.errors));
  }

  /**
   * Searches the files of the conversation (and the agent's own) for the user's last question and reports the search
   * as a retrieval event: the passages found, and the files that could not be read. Undefined when there are none.
   * With a keyword strategy, the strategy runs first (a child run aside) and its keywords are searched for.
   */
  protected async searchDocuments(
    messages: Message[],
    run: RunState,
  ): Promise<{ documents: RetrievedDocument[]; errors: string[] } | undefined> {
    const refs = documentRefs(this.files, messages);
    if (!refs.length) return undefined;
    const question = lastUserQuestion(messages);
    const { files, errors } = await localFiles(
      refs,
      run,
      this.toolSettings,
      'assistant',
      runFileNames(this.files, messages),
    );
    run.signal.throwIfAborted();
    const settings = ragSettings(this.ragCfg, this.toolSettings);
    const query =
      question && this.keygenStrategy !== 'none' ? await this.keywords(question, refs, settings, run) : question;
    // The search and the document parsers load when an Assistant first has documents to search.
    const { retrievalStep, retrieve } = await import('../documents/search');
    const { embeddingModel, ...search } = settings;
    const found = await retrieve(files, query, {
      ...search,
      ...(this.llm?.embedder ? { embedder: this.llm.embedder(embeddingModel) } : {}),
      ...(run.options.vectorStore ? { vectorStore: run.options.vectorStore } : {}),
      signal: run.signal,
    });
    errors.push(...found.errors);
    const notes = [...errors, ...found.unsupported, ...found.notes];
    run.emit({ ...retrievalStep(query, found, notes), by: 'assistant' });
    return { documents: found.documents, errors };
  }

  /** The search query the keyword strategy makes of the question (the question itself when its answer is no JSON). */
  private async keywords(question: string, refs: string[], settings: RagSettings, run: RunState): Promise<string> {
    const strategy = keygenAgent(this.keygenStrategy as KeygenStrategyName, {
      llm: this.llm,
      files: refs,
      parserPageSize: settings.parserPageSize,
      toolSettings: this.toolSettings,
    });
    const { messages } = await runChild(strategy, [{ role: 'user', content: question }], run, { aside: true });
    const answer = messages.filter((m) => m.role === 'assistant' && !m.function_call).at(-1);
    return keywordQuery(answer ? contentText(answer.content) : '', question);
  }
}

/** The knowledge block appended to the system message (a system message of its own when there is none). */
function withBlock(messages: Message[], block: string): Message[] {
  if (!block) return messages;
  const [first, ...rest] = messages;
  if (first?.role !== 'system') return [{ role: 'system', content: block }, ...messages];
  const content =
    typeof first.content === 'string' ? `${first.content}\n\n${block}` : [...first.content, { text: `\n\n${block}` }];
  return [{ ...first, content }, ...rest];
}
