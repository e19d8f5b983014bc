// `retrieval`: Qwen-Agent's RAG tool. Parses and indexes the named files (once per content; a name that is not one of
// the conversation's files searches all of them, and the result says so first), searches them for the
// query within the max_ref_token budget (BM25 fused with the front-page search, or the searchers its cfg's
// rag_searchers names), and returns Qwen-Agent's
// [{url, text: [passages]}]; each passage keeps its "[page: N]" lines. The search shows in the trace as a retrieval
// step tied to the call.
import { parsedCacheDir } from '../lib/documents/file-ref';
import type { ParseOptions } from '../lib/documents/search/index-cache';
import { DEFAULT_RAG_SEARCHERS, ragSearchers, type AvailableSearcher } from '../lib/documents/search/searchers';
import type { ToolContext } from './base-tool';
import { pickFilesOrAll } from './document-files';
import { BaseToolWithFileAccess } from './file-access';
import { registerTool } from './registry';
import { settingsOf, type ToolSettings } from './settings';

export const DOCUMENT_TYPES = 'pdf / docx / pptx / xlsx / xls / csv / tsv / html / md / txt';

export interface RagSettings {
  maxRefTokens: number;
  parserPageSize: number;
  /** Upstream's rag_searchers, checked: the searches that rank the chunks. */
  searchers: AvailableSearcher[];
  /** How documents are parsed: within the settings' limits, cached under their DATA_DIR. */
  parse: ParseOptions;
  /** The model vector search embeds with (cfg.embedding_model, else RAG_EMBEDDING_MODEL; default the chat model). */
  embeddingModel?: string;
}

/** How documents are parsed with these settings: within their limits, cached under their DATA_DIR. */
export function parseOptions(settings: Pick<ToolSettings, 'documents' | 'dataDir'>): ParseOptions {
  return { limits: settings.documents, cacheDir: parsedCacheDir(settings.dataDir) };
}

/**
 * cfg.max_ref_token, cfg.parser_page_size and cfg.rag_searchers (Qwen-Agent's names) and cfg.embedding_model (ours),
 * else the settings' (RAG_*). A searcher name it does not know throws a RagSettingError saying so.
 */
export function ragSettings(
  cfg: Record<string, unknown>,
  settings: Pick<ToolSettings, 'rag' | 'documents' | 'dataDir'>,
): RagSettings {
  const { rag } = settings;
  const int = (v: unknown, fallback: number) => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : fallback);
  const embeddingModel = (typeof cfg.embedding_model === 'string' && cfg.embedding_model.trim()) || rag.embeddingModel;
  const searchers =
    cfg.rag_searchers !== undefined
      ? ragSearchers(cfg.rag_searchers)
      : rag.searchers !== undefined
        ? ragSearchers(rag.searchers, 'RAG_SEARCHERS (or QWEN_AGENT_DEFAULT_RAG_SEARCHERS)')
        : [...DEFAULT_RAG_SEARCHERS];
  return {
    maxRefTokens: int(cfg.max_ref_token, rag.maxRefTokens),
    parserPageSize: int(cfg.parser_page_size, rag.parserPageSize),
    searchers,
    parse: parseOptions(settings),
    ...(embeddingModel ? { embeddingModel } : {}),
  };
}

export class RetrievalTool extends BaseToolWithFileAccess {
  name = 'retrieval';
  description = `Finds the passages of the given files that are relevant to a query. Supported file types: ${DOCUMENT_TYPES}.`;
  parameters = {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description:
          'Keywords to look for, separated by commas. Documents may be in more than one language, so give the keywords in both Chinese and English when you can.',
      },
      files: {
        type: 'array',
        items: { type: 'string' },
        description: 'The files to search, by the names they were uploaded under (or as given in the conversation).',
      },
    },
    required: ['query', 'files'],
  };

  constructor(cfg?: Record<string, unknown>) {
    super(cfg);
    // A searcher it cannot use is refused when the agent is made, not at its first call.
    if (this.cfg.rag_searchers !== undefined) ragSearchers(this.cfg.rag_searchers);
  }

  async call(params: string, ctx: ToolContext) {
    const { query, files } = this.parseArgs<{ query: string; files: string[] }>(params);
    const settings = ragSettings(this.cfg, settingsOf(ctx));
    const { retrievalStep, retrieve } = await import('../lib/documents/search'); // the parsers load on first use
    const picked = pickFilesOrAll(files, ctx);
    // No model to embed with here: vector_search and hybrid_search fall back to keyword search, and the trace says so.
    const found = await retrieve(picked.files, query, settings);
    // The model asked for these files by name: tell it about each one that could not be searched.
    const failed = [...found.errors, ...found.unsupported];
    ctx.emit?.(retrievalStep(query, found, [...failed, ...found.notes]));
    if (!found.documents.length && failed.length) throw new Error(failed.join('\n'));
    // A file name that is not the conversation's: the model reads first that every file was searched instead.
    const notice = picked.notice ? [{ notice: picked.notice }] : [];
    return [...notice, ...found.documents, ...failed.map((error) => ({ error }))];
  }
}

registerTool('retrieval')(RetrievalTool);
