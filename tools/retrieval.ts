// `retrieval`: Qwen-Agent's RAG tool. Parses and indexes the named files (once per content; a name that is not one of
// the conversation's files searches all of them, and the result says so first), searches them for the
// query within the max_ref_token budget (BM25 fused with the front-page search), and returns Qwen-Agent's
// [{url, text: [passages]}]; each passage keeps its "[page: N]" lines. The search shows in the trace as a retrieval
// step tied to the call.
import { loadConfig } from '../lib/config';
import { SEARCHERS, type SearcherName } from '../lib/documents/rag-searchers';
import type { ToolContext } from './base-tool';
import { pickFilesOrAll } from './document-files';
import { BaseToolWithFileAccess } from './file-access';
import { registerTool } from './registry';

export const DOCUMENT_TYPES = 'pdf / docx / pptx / xlsx / xls / csv / tsv / html / md / txt';

/** cfg.max_ref_token, cfg.parser_page_size, cfg.rag_searchers and cfg.embedding_model (Qwen-Agent's names, and
 *  ours for the embedding model), else the environment's defaults. An unknown searcher name is an error. */
export function ragSettings(cfg: Record<string, unknown>): {
  maxRefTokens: number;
  parserPageSize: number;
  searchers: SearcherName[];
  embeddingModel?: string;
} {
  const { rag } = loadConfig();
  const int = (v: unknown, fallback: number) => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : fallback);
  const model = typeof cfg.embedding_model === 'string' && cfg.embedding_model.trim();
  const embeddingModel = model || rag.embeddingModel;
  return {
    maxRefTokens: int(cfg.max_ref_token, rag.maxRefTokens),
    parserPageSize: int(cfg.parser_page_size, rag.parserPageSize),
    searchers: searcherNames(cfg.rag_searchers ?? rag.searchers),
    ...(embeddingModel ? { embeddingModel } : {}),
  };
}

function searcherNames(value: unknown): SearcherName[] {
  const list = Array.isArray(value) ? value : [value];
  const known: readonly string[] = SEARCHERS;
  const bad = list.filter((n) => typeof n !== 'string' || !known.includes(n));
  if (bad.length || !list.length)
    throw new Error(`rag_searchers takes a list of ${SEARCHERS.join(', ')}; got ${JSON.stringify(value)}.`);
  return list as SearcherName[];
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

  async call(params: string, ctx: ToolContext) {
    const { query, files } = this.parseArgs<{ query: string; files: string[] }>(params);
    // The tool searches by keyword whatever rag_searchers says (it has no model to embed with); the Assistant uses them.
    const { maxRefTokens, parserPageSize } = ragSettings(this.cfg);
    const settings = { maxRefTokens, parserPageSize };
    const { retrievalStep, retrieve } = await import('../lib/documents/search'); // the parsers load on first use
    const picked = pickFilesOrAll(files, ctx);
    const found = await retrieve(picked.files, query, settings);
    // The model asked for these files by name: tell it about each one that could not be searched.
    const failed = [...found.errors, ...found.unsupported];
    ctx.emit?.(retrievalStep(query, found, failed));
    if (!found.documents.length && failed.length) throw new Error(failed.join('\n'));
    // A file name that is not the conversation's: the model reads first that every file was searched instead.
    const notice = picked.notice ? [{ notice: picked.notice }] : [];
    return [...notice, ...found.documents, ...failed.map((error) => ({ error }))];
  }
}

registerTool('retrieval')(RetrievalTool);
