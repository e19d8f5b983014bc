// bench/search: one question searched over 10,000 chunks (ten documents of about 1,000 chunks of ~500 tokens,
// searched together as one corpus), through the real pipeline: query terms, BM25 over the per-document indexes,
// front-page fusion, the 20,000-token budget. Baseline, in the same run over the same chunks: a linear scan that
// scores each chunk by String.includes of each query word (what one writes without an index).
// Prints p50 and p95 per query for both and the ratio. Target: p50 <= 5 ms.
// Run: npm run bench:search [-- --queries 300 --chunks 10000]
import {
  chunkDocument,
  clearIndexCache,
  indexDocument,
  searchDocuments,
  type IndexedDocument,
} from '../lib/documents/search';
import type { ParsedDocument } from '../lib/documents/types';
import { quantile } from './support/stats';
import { random, VOCABULARY, zipfWord } from './support/synthetic-text';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) || fallback : fallback;
};
const QUERIES = arg('queries', 300);
const TARGET_CHUNKS = arg('chunks', 10_000);
const DOCUMENTS = 10;
const WARMUP = 30;

const STOP = ['the', 'of', 'and', 'to', 'in', 'is', 'for', 'with'];

/** A word of running text: a stop word a quarter of the time. */
function word(): string {
  if (random() < 0.25) return STOP[Math.floor(random() * STOP.length)]!;
  return zipfWord();
}

function paragraph(words: number): string {
  return Array.from({ length: words }, word).join(' ') + '.';
}

function makeDocument(d: number, pages: number): ParsedDocument {
  return {
    hash: `bench-${d}`,
    name: `doc-${d}.txt`,
    kind: 'text',
    pages: Array.from({ length: pages }, (_, p) => ({
      page: p + 1,
      paragraphs: Array.from({ length: 6 }, () => paragraph(100 + Math.floor(random() * 40))),
    })),
  };
}

/** Pages per document for about TARGET_CHUNKS chunks in all, measured on a trial document. */
function pagesPerDocument(): number {
  const trialPages = 100;
  const chunks = chunkDocument(makeDocument(-1, trialPages), 500).length;
  return Math.round(TARGET_CHUNKS / DOCUMENTS / (chunks / trialPages));
}

function query(): string {
  const n = 3 + Math.floor(random() * 4);
  const words = Array.from({ length: n }, () => VOCABULARY[Math.floor(random() * 3000)]!);
  return `What does the handbook say about ${words.join(' ')}?`;
}

/** The baseline: every chunk scanned with String.includes for every query word; chunks with hits ranked. */
function linearScan(chunks: { lower: string; tokens: number }[], q: string, budget: number): number {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const scored: { i: number; s: number }[] = [];
  for (let i = 0; i < chunks.length; i++) {
    let s = 0;
    for (const w of words) if (chunks[i]!.lower.includes(w)) s++;
    if (s) scored.push({ i, s });
  }
  scored.sort((a, b) => b.s - a.s);
  let used = 0;
  for (const { i } of scored) {
    if (used + chunks[i]!.tokens > budget) break;
    used += chunks[i]!.tokens;
  }
  return used;
}

function main() {
  clearIndexCache();
  const pages = pagesPerDocument();
  const t0 = performance.now();
  const docs: IndexedDocument[] = [];
  for (let d = 0; d < DOCUMENTS; d++) docs.push(indexDocument(makeDocument(d, pages), 500));
  const indexMs = performance.now() - t0;
  const chunks = docs.flatMap((d) => d.chunks.map((c) => ({ lower: c.content.toLowerCase(), tokens: c.tokens })));
  const tokens = docs.reduce((s, d) => s + d.totalTokens, 0);
  const queries = Array.from({ length: QUERIES + WARMUP }, query);

  const ours: number[] = [];
  const base: number[] = [];
  let sink = 0;
  queries.forEach((q, i) => {
    // Alternate which goes first, so neither always runs on a warmer cache.
    const runOurs = () => {
      const s = performance.now();
      sink += searchDocuments(docs, q, 20_000).usedTokens;
      return performance.now() - s;
    };
    const runBase = () => {
      const s = performance.now();
      sink += linearScan(chunks, q, 20_000);
      return performance.now() - s;
    };
    let a: number;
    let b: number;
    if (i % 2) {
      a = runOurs();
      b = runBase();
    } else {
      b = runBase();
      a = runOurs();
    }
    if (i >= WARMUP) {
      ours.push(a);
      base.push(b);
    }
  });

  const fmt = (ms: number) => ms.toFixed(2).padStart(8);
  console.log(
    `search over ${chunks.length.toLocaleString('en')} chunks (${DOCUMENTS} documents, ${tokens.toLocaleString('en')} tokens, ` +
      `max 500 tokens per chunk); ${QUERIES} queries, 20,000-token budget`,
  );
  console.log(`index build (once per file, cached): ${(indexMs / 1000).toFixed(1)} s for all ${DOCUMENTS} documents`);
  console.log(`                                   p50 ms    p95 ms`);
  console.log(`linear scan (String.includes)    ${fmt(quantile(base, 0.5))}  ${fmt(quantile(base, 0.95))}`);
  console.log(`BM25 + front page (ours)         ${fmt(quantile(ours, 0.5))}  ${fmt(quantile(ours, 0.95))}`);
  console.log(
    `ratio ours / baseline: p50 ${(quantile(ours, 0.5) / quantile(base, 0.5)).toFixed(3)}×, ` +
      `p95 ${(quantile(ours, 0.95) / quantile(base, 0.95)).toFixed(3)}×; ` +
      `target p50 <= 5 ms: ${quantile(ours, 0.5) <= 5 ? 'met' : 'NOT met'}`,
  );
  console.log(`rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (checksum ${sink})`);
}

main();
