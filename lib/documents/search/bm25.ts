// BM25 (Okapi) over chunks, with the constants and idf rule of rank_bm25's BM25Okapi that Qwen-Agent uses:
// k1 1.5, b 0.75, idf = ln(N - df + 0.5) - ln(df + 0.5), and a negative idf (a term in most chunks) replaced by
// 0.25 × the mean idf of the vocabulary. Each document keeps its own inverted index, built once; a query over several
// documents scores them as one corpus (N, document frequencies and average length summed across them), as upstream
// builds one BM25 over the chunks of all the files it is given.
export const K1 = 1.5;
export const B = 0.75;
export const EPSILON = 0.25;

let serial = 0;

export class Bm25Index {
  /** Names this index in the cache of corpus statistics. */
  readonly id = ++serial;
  /** term -> [chunk, tf, chunk, tf, ...] */
  readonly postings = new Map<string, Int32Array>();
  readonly lengths: Int32Array;
  readonly totalLength: number;

  constructor(termLists: readonly (readonly string[])[]) {
    this.lengths = Int32Array.from(termLists, (t) => t.length);
    this.totalLength = termLists.reduce((sum, t) => sum + t.length, 0);
    const lists = new Map<string, number[]>();
    termLists.forEach((list, chunk) => {
      const counts = new Map<string, number>();
      for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, tf] of counts) {
        let postings = lists.get(term);
        if (!postings) lists.set(term, (postings = []));
        postings.push(chunk, tf);
      }
    });
    for (const [term, list] of lists) this.postings.set(term, Int32Array.from(list));
  }

  get size(): number {
    return this.lengths.length;
  }

  df(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / 2;
  }
}

function idfOf(n: number, df: number): number {
  return Math.log(n - df + 0.5) - Math.log(df + 0.5);
}

/** Mean idf per combination of indexes (computing it walks every vocabulary); a few hundred kept. */
const meanCache = new Map<string, number>();
const MEAN_CACHE_SIZE = 256;

/** Mean idf over the vocabulary of the combined corpus (needed only when some query term has a negative idf). */
function meanIdf(indexes: readonly Bm25Index[], n: number): number {
  const key = indexes.map((i) => i.id).join(',');
  let mean = meanCache.get(key);
  if (mean === undefined) {
    mean = combinedMeanIdf(indexes, n);
    if (meanCache.size >= MEAN_CACHE_SIZE) meanCache.delete(meanCache.keys().next().value!);
    meanCache.set(key, mean);
  }
  return mean;
}

function combinedMeanIdf(indexes: readonly Bm25Index[], n: number): number {
  const df = new Map<string, number>();
  for (const index of indexes) for (const [term, p] of index.postings) df.set(term, (df.get(term) ?? 0) + p.length / 2);
  if (!df.size) return 0;
  let sum = 0;
  for (const d of df.values()) sum += idfOf(n, d);
  return sum / df.size;
}

/**
 * BM25 scores of every chunk of every index for the query terms (repeats count, as in rank_bm25). One score array
 * per index, in chunk order.
 */
export function bm25Scores(indexes: readonly Bm25Index[], query: readonly string[]): Float64Array[] {
  const scores = indexes.map((index) => new Float64Array(index.size));
  const n = indexes.reduce((sum, i) => sum + i.size, 0);
  if (!n || !query.length) return scores;
  const avgdl = indexes.reduce((sum, i) => sum + i.totalLength, 0) / n || 1;
  let mean: number | undefined;
  for (const term of query) {
    const df = indexes.reduce((sum, i) => sum + i.df(term), 0);
    if (!df) continue;
    let idf = idfOf(n, df);
    if (idf < 0) idf = EPSILON * (mean ??= meanIdf(indexes, n));
    indexes.forEach((index, i) => {
      const postings = index.postings.get(term);
      if (!postings) return;
      const out = scores[i]!;
      const { lengths } = index;
      for (let p = 0; p < postings.length; p += 2) {
        const chunk = postings[p]!;
        const tf = postings[p + 1]!;
        out[chunk]! += (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * lengths[chunk]!) / avgdl));
      }
    });
  }
  return scores;
}
