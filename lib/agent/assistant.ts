// Assistant: Qwen-Agent's FnCallAgent with documents. Before the loop it searches the files of the conversation
// (and the agent's own files) for the user's last question, appends a "# Knowledge Base" block with the passages to
// the system message, and reports the search as a retrieval event. Keywords come from the question itself (stop
// words out, stems in): no extra model call, where upstream's default asks the model to write keywords first.
import { defaultWorkDir, resolveLocalFile, stageFiles } from '../../tools';
import { ragSettings } from '../../tools/retrieval';
import type { RetrievalFile, RetrievedDocument, SearcherName } from '../documents/search';
import { contentText, type Message } from '../llm/schema';
import { collectFileRefs } from '../llm/upload-info';
import type { AgentKind, StopReason } from '../protocol/enums';
import type { AgentOptions } from './agent';
import { FnCallAgent } from './fncall-agent';
import type { RunState } from './run-state';

export interface AssistantOptions extends AgentOptions {
  /** Qwen-Agent's rag_cfg: `max_ref_token` (default 20000), `parser_page_size` (default 500), `rag_searchers`
   *  (default keyword_search + front_page_search; vector_search and hybrid_search embed through the model's
   *  connection) and our `embedding_model` (the model the connection embeds with; default its chat model). */
  ragCfg?: {
    max_ref_token?: number;
    parser_page_size?: number;
    rag_searchers?: SearcherName[];
    embedding_model?: string;
  };
}

export class Assistant extends FnCallAgent {
  static override readonly kind: AgentKind = 'assistant';
  readonly ragCfg: Record<string, unknown>;

  constructor(opts: AssistantOptions) {
    super(opts);
    this.ragCfg = { ...opts.ragCfg };
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
   */
  protected async searchDocuments(
    messages: Message[],
    run: RunState,
  ): Promise<{ documents: RetrievedDocument[]; errors: string[] } | undefined> {
    // Images are not documents: file items only.
    const refs = [...new Set([...this.files, ...collectFileRefs(messages, { images: false })])];
    if (!refs.length) return undefined;
    const last = messages[messages.length - 1];
    const query =
      last?.role === 'user' ? (typeof last.content === 'string' ? last.content : contentText(last.content)) : '';
    const { files, errors } = await this.localFiles(refs, run);
    run.signal.throwIfAborted();
    // The search and the document parsers load when an Assistant first has documents to search.
    const { retrievalStep, retrieve } = await import('../documents/search');
    const { embeddingModel, ...settings } = ragSettings(this.ragCfg);
    const found = await retrieve(files, query, {
      ...settings,
      ...(this.llm?.embedder ? { embedder: this.llm.embedder(embeddingModel) } : {}),
      ...(run.options.vectorStore ? { vectorStore: run.options.vectorStore } : {}),
      signal: run.signal,
    });
    errors.push(...found.errors);
    const notes = [...errors, ...found.unsupported, ...found.notes];
    run.emit({ ...retrievalStep(query, found, notes), by: 'assistant' });
    return { documents: found.documents, errors };
  }

  /** Uploads read where they are stored (other local paths only where the process allows them, as staging does);
   *  http(s) URLs downloaded into the run's work directory first. */
  private async localFiles(refs: string[], run: RunState): Promise<{ files: RetrievalFile[]; errors: string[] }> {
    const remote = refs.filter((r) => /^https?:\/\//i.test(r));
    const files: RetrievalFile[] = [];
    const errors: string[] = [];
    for (const ref of refs) {
      if (remote.includes(ref)) continue;
      try {
        files.push(await resolveLocalFile(ref, undefined, run.options.uploadAccess));
      } catch (e) {
        errors.push(`${ref}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (!remote.length) return { files, errors };
    const workDir = run.options.workDir ?? defaultWorkDir('assistant', run.options.conversationId);
    const staged = await stageFiles(remote, workDir, { signal: run.signal });
    return { files: [...files, ...staged.files.map((p) => ({ path: p }))], errors: [...errors, ...staged.errors] };
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
