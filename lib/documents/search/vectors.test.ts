// Vector and hybrid search's ranking (search.ts with vector scores) against a plain reference: every chunk's
// reciprocal-rank sum computed directly and sorted. The lazy merge must give the same order, with few keyword hits
// (each placed by its vector rank) and with many (everything sorted).
import { beforeEach, describe, expect, it } from 'vitest';
import type { ParsedDocument } from '../types';
import { bm25Scores } from './bm25';
import { clearIndexCache, indexDocument, type IndexedDocument } from './index-cache';
import { RRF_K, searchDocuments } from './search';
import { searchPlan, type AvailableSearcher } from './searchers';
import { queryTerms } from './terms';
import { memoryVectorStore, vectorScores } from './vectors';

beforeEach(() => clearIndexCache());

let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;

/** One chunk per paragraph: `n` paragraphs, the word "harbour" in those `hit` picks. */
function doc(name: string, n: number, hit: (i: number) => boolean): IndexedDocument {
  const parsed: ParsedDocument = {
    hash: `hash-${name}`,
    name,
    kind: 'text',
    pages: [
      {
        page: 1,
        paragraphs: Array.from({ length: n }, (_, i) =>
          hit(i)
            ? `Item ${i}: the harbour ${'and the harbour '.repeat(i % 3)}opens at dawn for boats.`
            : `Item ${i}: general notes about the office and its routines.`,
        ),
      },
    ],
  };
  return indexDocument(parsed, 30);
}

/** The fused order computed the plain way: both ranks of every chunk, summed, sorted. */
function reference(docs: IndexedDocument[], query: string, sims: Float64Array[], keyword: boolean) {
  const bm = bm25Scores(
    docs.map((d) => d.bm25),
    queryTerms(query),
  );
  const all = docs.flatMap((d, doc) =>
    d.chunks.map((_, chunk) => ({ doc, chunk, bm: bm[doc]![chunk]!, sim: sims[doc]![chunk]! })),
  );
  const g = (x: (typeof all)[number]) => all.indexOf(x);
  const byVector = [...all].sort((a, b) => b.sim - a.sim || g(a) - g(b));
  const byKeyword = all.filter((x) => x.bm > 0).sort((a, b) => b.bm - a.bm || g(a) - g(b));
  const fused = new Map(all.map((x) => [x, 0]));
  byVector.forEach((x, r) => fused.set(x, fused.get(x)! + 1 / (r + 1 + RRF_K)));
  if (keyword) byKeyword.forEach((x, r) => fused.set(x, fused.get(x)! + 1 / (r + 1 + RRF_K)));
  return [...all].sort((a, b) => fused.get(b)! - fused.get(a)! || g(a) - g(b)).map((x) => `${x.doc}:${x.chunk}`);
}

function ranked(docs: IndexedDocument[], query: string, sims: Float64Array[], searchers: AvailableSearcher[]) {
  const r = searchDocuments(docs, query, 200, searchPlan(searchers), sims);
  expect(r.mode).toBe('ranked');
  return r.ranking.map((x) => `${x.doc}:${x.chunk}`);
}

const simsFor = (docs: IndexedDocument[]) => docs.map((d) => Float64Array.from(d.chunks, () => random() * 2 - 1));

describe('vector and hybrid ranking', () => {
  it('hybrid_search: the reciprocal-rank sum of both rankings, when few chunks hold a query term', () => {
    const docs = [doc('a.txt', 120, (i) => i % 17 === 3), doc('b.txt', 80, (i) => i % 11 === 5)];
    const sims = simsFor(docs);
    const got = ranked(docs, 'When does the harbour open?', sims, ['hybrid_search']);
    expect(got.length).toBeGreaterThan(10);
    expect(got).toEqual(reference(docs, 'When does the harbour open?', sims, true).slice(0, got.length));
  });

  it('hybrid_search: the same when most chunks hold a query term (more hits than are placed one by one)', () => {
    const docs = [doc('c.txt', 400, (i) => i % 7 !== 0)];
    const sims = simsFor(docs);
    const got = ranked(docs, 'harbour', sims, ['hybrid_search']);
    expect(docs[0]!.chunks.filter((c) => c.content.includes('harbour')).length).toBeGreaterThan(256);
    expect(got).toEqual(reference(docs, 'harbour', sims, true).slice(0, got.length));
  });

  it('vector_search alone: by similarity, keyword hits counting for nothing, no front page pinned', () => {
    const docs = [doc('d.txt', 150, (i) => i < 40)];
    const sims = simsFor(docs);
    const r = searchDocuments(docs, 'harbour', 200, searchPlan(['vector_search']), sims);
    expect(r.ranking.map((x) => `${x.doc}:${x.chunk}`)).toEqual(
      reference(docs, 'harbour', sims, false).slice(0, r.ranking.length),
    );
    expect(r.ranking.some((x) => x.pinned)).toBe(false);
    expect(r.ranking[0]!.score).toBe(Math.max(...sims[0]!));
  });

  it('front_page_search beside them pins the first chunks of a single document first', () => {
    const docs = [doc('e.txt', 150, (i) => i === 90)];
    const sims = simsFor(docs);
    const r = searchDocuments(docs, 'harbour', 200, searchPlan(['hybrid_search', 'front_page_search']), sims);
    expect(r.ranking.slice(0, 2).map((x) => [x.chunk, x.pinned])).toEqual([
      [0, true],
      [1, true],
    ]);
  });

  it('vectorScores: embeds each document once per embedder (the store keeps them) and the query every time', async () => {
    const docs = [doc('f.txt', 20, () => false)];
    const calls: number[] = [];
    const embedder = {
      id: 'counting',
      embed: async (texts: readonly string[]) => {
        calls.push(texts.length);
        return texts.map((t) => Float32Array.of(t.length, 1));
      },
    };
    const store = memoryVectorStore();
    await vectorScores(docs, 'q', embedder, store);
    await vectorScores(docs, 'q', embedder, store);
    expect(calls).toEqual([docs[0]!.chunks.length, 1, 1]);
    await vectorScores(docs, 'q', { ...embedder, id: 'another model' }, store);
    expect(calls.slice(3)).toEqual([docs[0]!.chunks.length, 1]);
  });
});
