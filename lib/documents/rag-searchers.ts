// The names of Qwen-Agent's searchers (rag_searchers) and what each adds to the search (search/search.ts); no imports, so the
// settings can check names without loading the search.
/** Upstream's rag_searchers names. */
export const SEARCHERS = ['keyword_search', 'front_page_search', 'vector_search', 'hybrid_search'] as const;
export type SearcherName = (typeof SEARCHERS)[number];
export const DEFAULT_SEARCHERS: readonly SearcherName[] = ['keyword_search', 'front_page_search'];

/** Which rankings a list of searchers fuses (hybrid_search is keyword and vector search). */
export function searcherFlags(searchers: readonly SearcherName[] = DEFAULT_SEARCHERS): {
  keyword: boolean;
  front: boolean;
  vector: boolean;
} {
  const has = (n: SearcherName) => searchers.includes(n);
  return {
    keyword: has('keyword_search') || has('hybrid_search'),
    front: has('front_page_search'),
    vector: has('vector_search') || has('hybrid_search'),
  };
}
