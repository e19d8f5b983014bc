// Which chunks of which documents go into the prompt, as Qwen-Agent's hybrid search (keyword_search +
// front_page_search, the default `rag_searchers`; searchers.ts) decides it:
// - an empty query takes the beginning of each document, the budget split evenly between them;
// - when every chunk together fits the budget, everything goes in;
// - otherwise the BM25 ranking and the front-page ranking (the first two chunks of a single document, when they take
//   at most a quarter of the budget) are fused by reciprocal rank, each list adding 1/(rank + 61) to a chunk and a
//   front-page chunk ranking first; chunks are then taken in that order until the budget is spent, the one that
//   overflows cut to the tokens left. The chosen chunks go into the prompt in document order.
// With one searcher, as upstream: keyword_search alone ranks by BM25 only (and takes the documents' beginnings when
// no chunk holds a query term); front_page_search alone takes the pinned chunks and nothing else. With vector scores
// (vector_search, hybrid_search), the vector ranking (every chunk by similarity) is one more list in the fusion.
import { truncateTokens } from '../../llm/tokens';
import { bm25Scores } from './bm25';
import type { IndexedDocument } from './index-cache';
import { DEFAULT_SEARCH_PLAN, type SearchPlan } from './searchers';
import { queryTerms } from './terms';

export const DEFAULT_MAX_REF_TOKEN = 20_000;
/** front_page_search's DEFAULT_FRONT_PAGE_NUM. */
export const FRONT_PAGE_CHUNKS = 2;
/** Reciprocal-rank fusion constant (upstream adds 1 / (rank + 1 + 60) with a 0-based rank). */
export const RRF_K = 60;

export type SearchMode = 'all' | 'front' | 'ranked';

export interface RankedChunk {
  doc: number;
  chunk: number;
  /** The chunk's BM25 score for the query (0 when no query term occurs in it); its cosine similarity to the query
   *  when vector search ranks without keyword search. */
  score: number;
  /** Put first by the front-page search. */
  pinned: boolean;
  /** The fused reciprocal-rank score (Infinity when pinned); 0 outside the ranked mode. */
  fused: number;
  /** The text that went into the prompt (the whole chunk, or the part that fitted), when it was used. */
  usedText?: string;
  usedTokens?: number;
}

export interface SearchResult {
  mode: SearchMode;
  /** The query's BM25 terms (stemmed, stop words removed). */
  terms: string[];
  /** Chunks in the order they were considered: for 'ranked', those used then the next UNUSED_LISTED best; for
   *  'front' and 'all', every chunk in document order. */
  ranking: RankedChunk[];
  usedTokens: number;
  budgetTokens: number;
  /** Per document, in input order, the texts used in document order (documents with nothing used left out). */
  refs: { doc: IndexedDocument; texts: string[]; chunks: number[] }[];
}

/** Chunks the trace lists beyond those used: the next best, so one sees what just missed. */
export const UNUSED_LISTED = 10;
/** Chunks ranked by a partial sort before falling back to sorting them all (the budget rarely needs more). */
const PARTIAL_RANK = 128;

function documentOrder(docs: readonly IndexedDocument[], scores: Float64Array[]): RankedChunk[] {
  const out: RankedChunk[] = [];
  docs.forEach((d, doc) =>
    d.chunks.forEach((_, chunk) => out.push({ doc, chunk, score: scores[doc]![chunk]!, pinned: false, fused: 0 })),
  );
  return out;
}

function markUsed(entry: RankedChunk, text: string, tokens: number): void {
  entry.usedText = text;
  entry.usedTokens = tokens;
}

/**
 * Fills the budget in ranking order; the chunk that does not fit is cut to what is left and ends the filling. Returns
 * the tokens used and every chunk considered (those used, then up to `extra` more, for the trace).
 */
function fill(
  docs: readonly IndexedDocument[],
  ranking: Iterable<RankedChunk>,
  budget: number,
  extra = Infinity,
): { used: number; considered: RankedChunk[] } {
  let left = budget;
  let unused = 0;
  const considered: RankedChunk[] = [];
  for (const entry of ranking) {
    if (left <= 0 && unused >= extra) break;
    considered.push(entry);
    if (left <= 0) {
      unused++;
      continue;
    }
    const chunk = docs[entry.doc]!.chunks[entry.chunk]!;
    if (chunk.tokens <= left) {
      markUsed(entry, chunk.content, chunk.tokens);
      left -= chunk.tokens;
    } else {
      markUsed(entry, truncateTokens(chunk.content, left), left);
      left = 0;
    }
  }
  return { used: budget - left, considered };
}

function frontParts(docs: readonly IndexedDocument[], ranking: RankedChunk[], budget: number): number {
  const share = Math.floor(budget / docs.length);
  let used = 0;
  docs.forEach((_, doc) => {
    used += fill(
      docs,
      ranking.filter((r) => r.doc === doc),
      share,
    ).used;
  });
  return used;
}

/** The best `k` of `items` under `before` (a total order), best first; a partial sort. */
function topK(items: Int32Array, k: number, before: (a: number, b: number) => number): number[] {
  const top: number[] = [];
  for (const g of items) {
    if (top.length === k && before(g, top[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(top[mid]!, g) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, g);
    if (top.length > k) top.pop();
  }
  return top;
}

/** front_page_search: the first chunks of a single document, when they take at most a quarter of the budget. */
function frontPinned(docs: readonly IndexedDocument[], budget: number, front: boolean): Set<number> {
  const pinned = new Set<number>();
  if (!front || docs.length !== 1) return pinned;
  const chunks = docs[0]!.chunks;
  for (let i = 0; i < Math.min(FRONT_PAGE_CHUNKS, chunks.length); i++) {
    if (budget < chunks[i]!.tokens * FRONT_PAGE_CHUNKS * 2) break;
    pinned.add(i);
  }
  return pinned;
}

/** Chunk indexes 0..n-1 best first under `before`, made lazily: a partial sort of the best, the rest sorted only
 *  when they are asked for. */
function* lazyOrder(n: number, before: (a: number, b: number) => number): Generator<number> {
  const all = new Int32Array(n);
  for (let g = 0; g < n; g++) all[g] = g;
  const top = topK(all, PARTIAL_RANK, before);
  yield* top;
  if (n > top.length) yield* Array.from(all).sort(before).slice(top.length);
}

/** Keyword hits beyond which the hybrid ranking sorts every chunk instead of placing each hit (a query of common
 *  words). */
const PLACED_HITS = 256;

/** Where each document's chunks start when all documents' chunks are numbered in one run, and how many there are. */
function chunkOffsets(docs: readonly IndexedDocument[]): { offsets: number[]; n: number } {
  const offsets: number[] = [];
  let n = 0;
  for (const d of docs) {
    offsets.push(n);
    n += d.chunks.length;
  }
  return { offsets, n };
}

/**
 * Chunks in fused order when vector search takes part: every chunk gets 1/(rank + 61) from the vector ranking and,
 * with keyword search, each chunk holding a query term from the BM25 ranking (only those: ranked in document order,
 * the others would outweigh what the vectors found with nothing but their place in the file); pinned front-page
 * chunks first. Made lazily: the chunks without a keyword hit keep their vector order, so only the hits need their
 * vector rank, and the two lists are merged.
 */
function* vectorFusedOrder(
  docs: readonly IndexedDocument[],
  scores: Float64Array[],
  similarity: Float64Array[],
  keyword: boolean,
  budget: number,
  front: boolean,
): Generator<RankedChunk> {
  const { offsets, n } = chunkOffsets(docs);
  const flat = new Float64Array(n);
  const sim = new Float64Array(n);
  docs.forEach((_, d) => {
    flat.set(scores[d]!, offsets[d]);
    sim.set(similarity[d]!.subarray(0, docs[d]!.chunks.length), offsets[d]);
  });
  const entry = (g: number, pinned: boolean, fused: number): RankedChunk => {
    let doc = docs.length - 1;
    while (offsets[doc]! > g) doc--;
    return { doc, chunk: g - offsets[doc]!, score: keyword ? flat[g]! : sim[g]!, pinned, fused };
  };
  const pinned = frontPinned(docs, budget, front);
  for (const g of pinned) yield entry(g, true, Infinity);
  const byVector = (a: number, b: number) => sim[b]! - sim[a]! || a - b;
  const hits: number[] = [];
  if (keyword) for (let g = 0; g < n; g++) if (flat[g]! > 0) hits.push(g);
  const rrf = (rank: number) => 1 / (rank + 1 + RRF_K);

  if (hits.length > PLACED_HITS) {
    // Many hits: both ranks of every chunk, by sorting.
    const fused = new Float64Array(n);
    Array.from(fused.keys())
      .sort(byVector)
      .forEach((g, r) => (fused[g] = rrf(r)));
    hits.sort((a, b) => flat[b]! - flat[a]! || a - b).forEach((g, r) => (fused[g] = fused[g]! + rrf(r)));
    for (const g of lazyOrder(n, (a, b) => fused[b]! - fused[a]! || a - b))
      if (!pinned.has(g)) yield entry(g, false, fused[g]!);
    return;
  }
  // Few hits: each hit's fused score from its two ranks (its vector rank counted), best first.
  hits.sort((a, b) => flat[b]! - flat[a]! || a - b);
  const hitFused = new Map<number, number>();
  hits.forEach((g, r) => {
    let vectorRank = 0;
    const own = sim[g]!;
    for (let o = 0; o < n; o++) if (sim[o]! > own || (sim[o] === own && o < g)) vectorRank++;
    hitFused.set(g, rrf(r) + rrf(vectorRank));
  });
  const placed = [...hitFused.keys()].sort((a, b) => hitFused.get(b)! - hitFused.get(a)! || a - b);
  let next = 0;
  let rank = 0;
  for (const g of lazyOrder(n, byVector)) {
    const fused = rrf(rank++);
    if (hitFused.has(g)) continue;
    while (next < placed.length) {
      const h = placed[next]!;
      const f = hitFused.get(h)!;
      if (f < fused || (f === fused && h > g)) break;
      next++;
      if (!pinned.has(h)) yield entry(h, false, f);
    }
    if (!pinned.has(g)) yield entry(g, false, fused);
  }
  for (; next < placed.length; next++) {
    const h = placed[next]!;
    if (!pinned.has(h)) yield entry(h, false, hitFused.get(h)!);
  }
}

/**
 * Chunks in fused order, made lazily (only as many as the budget and the trace take): pinned front-page chunks first,
 * then the keyword list, which ranks every chunk by BM25 score (ties, and chunks without a query term, in document
 * order). Each list adds 1/(rank + 61); since that only falls with the rank, the fused order of the chunks not
 * pinned is the keyword order.
 */
function* fusedOrder(
  docs: readonly IndexedDocument[],
  scores: Float64Array[],
  terms: string[],
  budget: number,
  plan: SearchPlan,
): Generator<RankedChunk> {
  const { offsets, n } = chunkOffsets(docs);
  const flat = new Float64Array(n);
  scores.forEach((s, d) => flat.set(s, offsets[d]));
  const entry = (g: number, pinned: boolean, fused: number): RankedChunk => {
    let doc = docs.length - 1;
    while (offsets[doc]! > g) doc--;
    return { doc, chunk: g - offsets[doc]!, score: flat[g]!, pinned, fused };
  };
  const pinned = frontPinned(docs, budget, plan.frontPage);
  for (const g of pinned) yield entry(g, true, Infinity);
  if (!plan.keyword) return;
  if (!terms.length) {
    for (let g = 0; g < n; g++) if (!pinned.has(g)) yield entry(g, false, 0);
    return;
  }
  let rank = 0;
  const ranked = (g: number) => entry(g, false, 1 / (rank + 1 + RRF_K));
  const before = (a: number, b: number) => flat[b]! - flat[a]! || a - b;
  const select = (keep: (score: number) => boolean) => {
    const out: number[] = [];
    for (let g = 0; g < n; g++) if (keep(flat[g]!)) out.push(g);
    return Int32Array.from(out);
  };
  const positive = select((x) => x > 0);
  let sorted = topK(positive, PARTIAL_RANK, before);
  for (let i = 0; ; i++) {
    if (i === PARTIAL_RANK && positive.length > PARTIAL_RANK) sorted = Array.from(positive).sort(before);
    if (i >= sorted.length) break;
    const g = sorted[i]!;
    if (!pinned.has(g)) yield ranked(g);
    rank++;
  }
  for (let g = 0; g < n; g++) {
    if (flat[g] !== 0) continue;
    if (!pinned.has(g)) yield ranked(g);
    rank++;
  }
  for (const g of Array.from(select((x) => x < 0)).sort(before)) {
    if (!pinned.has(g)) yield ranked(g);
    rank++;
  }
}

export function searchDocuments(
  docs: readonly IndexedDocument[],
  query: string,
  budgetTokens = DEFAULT_MAX_REF_TOKEN,
  plan: SearchPlan = DEFAULT_SEARCH_PLAN,
  /** Per document, each chunk's cosine similarity to the query (vectors.ts): with plan.vector, one more ranking. */
  vectorScores?: Float64Array[],
): SearchResult {
  const terms = queryTerms(query);
  const scores = bm25Scores(
    docs.map((d) => d.bm25),
    terms,
  );
  const total = docs.reduce((sum, d) => sum + d.totalTokens, 0);
  let mode: SearchMode;
  let ranking: RankedChunk[];
  let usedTokens: number;
  if (!docs.length) {
    mode = 'all';
    ranking = [];
    usedTokens = 0;
  } else if (!query.trim()) {
    mode = 'front';
    ranking = documentOrder(docs, scores);
    usedTokens = frontParts(docs, ranking, budgetTokens);
  } else if (total <= budgetTokens) {
    mode = 'all';
    ranking = documentOrder(docs, scores);
    usedTokens = fill(docs, ranking, budgetTokens).used;
  } else if (!plan.frontPage && !(plan.vector && vectorScores) && !scores.some((s) => s.some((x) => x > 0))) {
    // Keyword search alone, and no chunk holds a query term: the documents' beginnings, as for no query.
    mode = 'front';
    ranking = documentOrder(docs, scores);
    usedTokens = frontParts(docs, ranking, budgetTokens);
  } else {
    mode = 'ranked';
    const order =
      plan.vector && vectorScores
        ? vectorFusedOrder(docs, scores, vectorScores, plan.keyword, budgetTokens, plan.frontPage)
        : fusedOrder(docs, scores, terms, budgetTokens, plan);
    const filled = fill(docs, order, budgetTokens, UNUSED_LISTED);
    ranking = filled.considered;
    usedTokens = filled.used;
  }
  const refs: SearchResult['refs'] = [];
  docs.forEach((doc, d) => {
    const used = ranking.filter((r) => r.doc === d && r.usedText !== undefined).sort((a, b) => a.chunk - b.chunk);
    if (used.length) refs.push({ doc, texts: used.map((r) => r.usedText!), chunks: used.map((r) => r.chunk) });
  });
  return { mode, terms, ranking, usedTokens, budgetTokens, refs };
}
