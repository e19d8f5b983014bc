import { beforeEach, describe, expect, it } from 'vitest';
import { countTokens } from '../../llm/tokens';
import type { ParsedDocument } from '../types';
import { bm25Scores } from './bm25';
import { clearIndexCache, indexDocument } from './index-cache';
import { FRONT_PAGE_CHUNKS, RRF_K, searchDocuments } from './search';

beforeEach(() => clearIndexCache());

/** A document of `pages` pages; page N holds `perPage` filler paragraphs, plus `extra` on chosen pages. */
function document(name: string, pages: number, extra: Record<number, string> = {}, perPage = 6): ParsedDocument {
  return {
    hash: `hash-${name}`,
    name,
    kind: 'text',
    pages: Array.from({ length: pages }, (_, i) => ({
      page: i + 1,
      paragraphs: [
        ...Array.from(
          { length: perPage },
          (_, j) =>
            `Page ${i + 1} paragraph ${j} talks about general office matters and routine administrative topics.`,
        ),
        ...(extra[i + 1] ? [extra[i + 1]!] : []),
      ],
    })),
  };
}

const SABBATICAL = 'Sabbatical leave: after seven years staff may take a sabbatical of three months.';

describe('searchDocuments', () => {
  it('puts everything in, in document order, when all chunks fit the budget', () => {
    const d = indexDocument(document('small.txt', 3, { 2: SABBATICAL }), 100);
    const r = searchDocuments([d], 'sabbatical', 20_000);
    expect(r.mode).toBe('all');
    expect(r.refs[0]!.chunks).toEqual(d.chunks.map((c) => c.index));
    expect(r.usedTokens).toBe(d.totalTokens);
  });

  it('ranks by BM25 and pins the first two chunks of a single document (front page), then fills the budget', () => {
    const d = indexDocument(document('big.txt', 30, { 17: SABBATICAL }), 100);
    const budget = 100 * 6;
    const r = searchDocuments([d], 'How long is a sabbatical?', budget);
    expect(r.mode).toBe('ranked');
    expect(r.ranking.slice(0, FRONT_PAGE_CHUNKS).map((x) => [x.chunk, x.pinned, x.fused])).toEqual([
      [0, true, Infinity],
      [1, true, Infinity],
    ]);
    const third = r.ranking[2]!;
    expect(d.chunks[third.chunk]!.content).toContain('Sabbatical leave');
    expect(third.fused).toBeCloseTo(1 / (1 + RRF_K), 12); // the best keyword hit: keyword rank 0
    expect(third.usedText).toBeDefined();
    expect(r.usedTokens).toBeLessThanOrEqual(budget);
    // Into the prompt in document order.
    expect(r.refs[0]!.chunks).toEqual([...r.refs[0]!.chunks].sort((a, b) => a - b));
    expect(r.refs[0]!.texts.join('\n')).toContain('Sabbatical leave');
  });

  it('does not pin the front page when two opening chunks would take more than half the budget', () => {
    const d = indexDocument(document('big.txt', 30, { 17: SABBATICAL }), 100);
    const r = searchDocuments([d], 'sabbatical', 250);
    expect(r.ranking.some((x) => x.pinned)).toBe(false);
    expect(d.chunks[r.ranking[0]!.chunk]!.content).toContain('Sabbatical');
  });

  it('cuts the chunk that overflows the budget to the tokens left and stops there', () => {
    const d = indexDocument(document('big.txt', 30, { 5: SABBATICAL, 20: SABBATICAL }), 100);
    const budget = 150;
    const r = searchDocuments([d], 'sabbatical', budget);
    const used = r.ranking.filter((x) => x.usedText !== undefined);
    expect(used).toHaveLength(2);
    expect(r.usedTokens).toBe(budget);
    const cut = used[1]!;
    expect(countTokens(cut.usedText!)).toBeLessThanOrEqual(budget - used[0]!.usedTokens!);
    expect(cut.usedText!.length).toBeLessThan(d.chunks[cut.chunk]!.content.length);
  });

  it('does not use the front page across several documents, and searches them as one corpus', () => {
    const a = indexDocument(document('a.txt', 20), 100);
    const b = indexDocument(document('b.txt', 20, { 9: SABBATICAL }), 100);
    const r = searchDocuments([a, b], 'sabbatical', 300);
    expect(r.ranking.some((x) => x.pinned)).toBe(false);
    expect(r.ranking[0]!.doc).toBe(1);
    expect(r.refs.map((x) => x.doc.name)).toContain('b.txt');
  });

  it('with an empty query takes the beginning of each document, the budget split between them', () => {
    const a = indexDocument(document('a.txt', 20), 100);
    const b = indexDocument(document('b.txt', 20), 100);
    const r = searchDocuments([a, b], '  ', 400);
    expect(r.mode).toBe('front');
    expect(r.refs.map((x) => x.doc.name)).toEqual(['a.txt', 'b.txt']);
    for (const ref of r.refs) {
      expect(ref.chunks[0]).toBe(0);
      expect(ref.texts.reduce((s, t) => s + countTokens(t), 0)).toBeLessThanOrEqual(200 + ref.texts.length);
    }
  });

  it('with a query of stop words only falls back to the front of a single document', () => {
    const d = indexDocument(document('big.txt', 30), 100);
    const r = searchDocuments([d], 'Summarize this paper', 1000);
    expect(r.terms).toEqual([]);
    expect(r.refs[0]!.chunks.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('finds the Chinese passage for a Chinese question', () => {
    const zh: ParsedDocument = {
      hash: 'zh',
      name: '手册.txt',
      kind: 'text',
      pages: Array.from({ length: 20 }, (_, i) => ({
        page: i + 1,
        paragraphs: [
          i === 12 ? '年假规定：员工每年享有十五天带薪年假。' : `第${i + 1}页介绍办公室的日常管理事项和一般行政安排。`,
        ],
      })),
    };
    const d = indexDocument(zh, 60);
    const r = searchDocuments([d], '员工的年假有几天？', 120);
    const hit = r.ranking.find((x) => !x.pinned)!;
    expect(d.chunks[hit.chunk]!.content).toContain('年假规定');
    expect(d.chunks[hit.chunk]!.page).toBe(13);
  });

  it('ranks beyond the partial sort exactly as a full sort would (score, then document order)', () => {
    const many: ParsedDocument = {
      hash: 'many',
      name: 'many.txt',
      kind: 'text',
      pages: [
        {
          page: 1,
          paragraphs: Array.from({ length: 400 }, (_, i) =>
            `${'alpha '.repeat(1 + (i % 7))}item ${i} with some filler words to pad the chunk out a little more.`.repeat(
              2,
            ),
          ),
        },
      ],
    };
    const d = indexDocument(many, 60);
    const budget = Math.floor(d.totalTokens * 0.8);
    const r = searchDocuments([d], 'alpha', budget);
    const used = r.ranking.filter((x) => x.usedText !== undefined && !x.pinned);
    expect(used.length).toBeGreaterThan(200);
    const expected = [...used].sort((a, b) => b.score - a.score || a.chunk - b.chunk).map((x) => x.chunk);
    expect(used.map((x) => x.chunk)).toEqual(expected);
    // And they are the best ones: nothing left out scores higher than the last one used.
    const [all] = bm25Scores([d.bm25], r.terms);
    const usedSet = new Set(r.ranking.filter((x) => x.usedText !== undefined).map((x) => x.chunk));
    const bestLeftOut = Math.max(...[...all!].filter((_, i) => !usedSet.has(i)));
    expect(bestLeftOut).toBeLessThanOrEqual(Math.min(...used.map((x) => x.score)));
    expect(r.ranking.length).toBe(r.ranking.filter((x) => x.usedText !== undefined).length + 10);
  });

  it('indexes a document once per content hash and page size', () => {
    const doc = document('x.txt', 5);
    const first = indexDocument(doc, 100);
    expect(indexDocument({ ...doc }, 100).bm25).toBe(first.bm25);
    expect(indexDocument({ ...doc, name: 'renamed.txt' }, 100).name).toBe('renamed.txt');
    expect(indexDocument(doc, 200).bm25).not.toBe(first.bm25);
  });
});
