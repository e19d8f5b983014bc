// Which searches rank the chunks: Qwen-Agent's `rag_searchers`, by upstream's names. `keyword_search` is BM25 over
// the chunks' terms, `front_page_search` puts the first two chunks of a single document first, `vector_search` ranks
// by the cosine of the chunks' embeddings to the question's (vectors.ts), and `hybrid_search` is keyword and vector
// search together; given several, their rankings are fused by reciprocal rank, as upstream's hybrid search fuses its
// sub-searchers (search.ts). No imports: the settings check names without loading the search.

/** Every searcher name upstream accepts. */
export const RAG_SEARCHER_NAMES = ['keyword_search', 'front_page_search', 'vector_search', 'hybrid_search'] as const;
export type RagSearcherName = (typeof RAG_SEARCHER_NAMES)[number];

/** The searchers this version has: all of upstream's. */
export const AVAILABLE_SEARCHERS = RAG_SEARCHER_NAMES;
export type AvailableSearcher = RagSearcherName;

/** Upstream's DEFAULT_RAG_SEARCHERS. */
export const DEFAULT_RAG_SEARCHERS: readonly AvailableSearcher[] = ['keyword_search', 'front_page_search'];

/** How the chunks are ranked: by BM25 keyword score, by vector similarity, with the front page pinned first. */
export interface SearchPlan {
  keyword: boolean;
  frontPage: boolean;
  vector: boolean;
}

export const DEFAULT_SEARCH_PLAN: SearchPlan = { keyword: true, frontPage: true, vector: false };

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
    if (!(AVAILABLE_SEARCHERS as readonly string[]).includes(name))
      throw new RagSettingError(
        `${where}: "${name}" is not a searcher. The searchers are ${quoted(RAG_SEARCHER_NAMES)}.`,
      );
    if (!out.includes(name as AvailableSearcher)) out.push(name as AvailableSearcher);
  }
  return out;
}

export function searchPlan(searchers: readonly AvailableSearcher[]): SearchPlan {
  const has = (n: AvailableSearcher) => searchers.includes(n);
  return {
    keyword: has('keyword_search') || has('hybrid_search'),
    frontPage: has('front_page_search'),
    vector: has('vector_search') || has('hybrid_search'),
  };
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
