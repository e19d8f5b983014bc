// Which searches rank the chunks: Qwen-Agent's `rag_searchers`, by upstream's names. `keyword_search` is BM25 over
// the chunks' terms, `front_page_search` puts the first two chunks of a single document first; given both (the
// default) their rankings are fused by reciprocal rank, as upstream's hybrid search fuses its sub-searchers.
//
// `vector_search` and `hybrid_search` need embeddings stored beside the chunks, which come with the vector store:
// until then they are refused by name, here, so that an agent asking for them fails when it is made rather than
// searching some other way. Adding one means a ranking list in search.ts's fused order and its name moving from
// COMING_SEARCHERS to AVAILABLE_SEARCHERS.

/** Every searcher name upstream accepts. */
export const RAG_SEARCHER_NAMES = ['keyword_search', 'front_page_search', 'vector_search', 'hybrid_search'] as const;
export type RagSearcherName = (typeof RAG_SEARCHER_NAMES)[number];

/** The searchers this version has. */
export const AVAILABLE_SEARCHERS = ['keyword_search', 'front_page_search'] as const;
export type AvailableSearcher = (typeof AVAILABLE_SEARCHERS)[number];

/** Upstream's searchers that wait for embeddings. */
const COMING_SEARCHERS: readonly string[] = ['vector_search', 'hybrid_search'];

/** Upstream's DEFAULT_RAG_SEARCHERS. */
export const DEFAULT_RAG_SEARCHERS: readonly AvailableSearcher[] = ['keyword_search', 'front_page_search'];

/** How the chunks are ranked: by BM25 keyword score, with the front page pinned first, or both. */
export interface SearchPlan {
  keyword: boolean;
  frontPage: boolean;
}

export const DEFAULT_SEARCH_PLAN: SearchPlan = { keyword: true, frontPage: true };

/** A retrieval setting that cannot be honoured, with what to write instead. */
export class RagSettingError extends Error {
  override name = 'RagSettingError';
}

/**
 * The searchers a `rag_searchers` value names, checked: a list of upstream's names (a Python-style list in a string,
 * as upstream's QWEN_AGENT_DEFAULT_RAG_SEARCHERS is written, is read too). `where` names the setting in the error.
 */
export function ragSearchers(value: unknown, where = 'rag_searchers'): AvailableSearcher[] {
  const list = typeof value === 'string' ? listFromText(value, where) : value;
  if (!Array.isArray(list) || !list.every((n): n is string => typeof n === 'string'))
    throw new RagSettingError(`${where} must be a list of searcher names, such as ${quoted(DEFAULT_RAG_SEARCHERS)}.`);
  if (!list.length)
    throw new RagSettingError(`${where} is empty: name at least one of ${quoted(AVAILABLE_SEARCHERS)}.`);
  const out: AvailableSearcher[] = [];
  for (const name of list) {
    if (COMING_SEARCHERS.includes(name))
      throw new RagSettingError(
        `${where}: "${name}" is not available yet (vector and hybrid search need embeddings stored beside the ` +
          `chunks, which this version does not keep). Use ${quoted(AVAILABLE_SEARCHERS)}.`,
      );
    if (!(AVAILABLE_SEARCHERS as readonly string[]).includes(name))
      throw new RagSettingError(
        `${where}: "${name}" is not a searcher. The searchers are ${quoted(RAG_SEARCHER_NAMES)}.`,
      );
    if (!out.includes(name as AvailableSearcher)) out.push(name as AvailableSearcher);
  }
  return out;
}

export function searchPlan(searchers: readonly AvailableSearcher[]): SearchPlan {
  return { keyword: searchers.includes('keyword_search'), frontPage: searchers.includes('front_page_search') };
}

function listFromText(text: string, where: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return trimmed.split(',').map((s) => s.trim());
  try {
    // Python's list literal with single quotes: JSON once the quotes are double.
    return JSON.parse(trimmed.replace(/'/g, '"'));
  } catch {
    throw new RagSettingError(`${where} must be a list of searcher names, such as ${quoted(DEFAULT_RAG_SEARCHERS)}.`);
  }
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}
