// bench/recall: keyword vs vector vs hybrid search (rag_searchers), two measures.
// 1. recall@5 on a labelled question set (bench/data/recall: excerpts of the US Constitution, public domain, and 30
//    questions asked in other words than the text's, each labelled with the phrase that answers it). Vectors come
//    over HTTP from the scripted model server's /v1/embeddings, which is a STAND-IN embedding model
//    (scripts/model-server/embed.ts: hashed word concepts from a small synonym table, some written with these
//    questions in view, and character trigrams), not a trained model: the numbers show that the pipeline embeds,
//    stores and fuses, not what a real embedding model would score.
// 2. search p95 over 10,000 chunks (as bench/search.ts: ten documents of ~1,000 chunks of ~500 tokens) for each
//    searcher list, as a ratio to keyword search (keyword_search + front_page_search, the default) in the same run.
//    The chunk vectors are stored already (random unit vectors of the stand-in's size, and of 1024 numbers as many
//    real models make): the time is the cosine scan and the fused ranking; embedding the question (one request to
//    the model server) is measured apart.
// Run: npm run bench:recall [-- --queries 200]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chunkDocument,
  chunkVectors,
  indexDocument,
  memoryVectorStore,
  searchDocuments,
  type IndexedDocument,
  type AvailableSearcher,
  searchPlan,
} from '../lib/documents/search';
import { cosineScores, normalized } from '../lib/documents/search/vectors';
import type { ParsedDocument } from '../lib/documents/types';
import { createChatModel } from '../lib/llm';
import { STAND_IN_DIMS } from '../scripts/model-server/embed';
import { createModelServer } from '../scripts/model-server/server';
import { quantile } from './support/stats';
import { random, VOCABULARY, zipfWord } from './support/synthetic-text';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = path.join(HERE, 'data/recall');
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) || fallback : fallback;
};
const QUERIES = arg('queries', 200);
const WARMUP = 20;
const K = 5;
/** Small chunks, so the 1,400-word text makes some forty of them to choose five from. */
const PAGE_SIZE = 64;

const METHODS: { name: string; searchers: AvailableSearcher[] }[] = [
  { name: 'keyword', searchers: ['keyword_search'] },
  { name: 'vector', searchers: ['vector_search'] },
  { name: 'hybrid', searchers: ['hybrid_search'] },
];

/** The markdown as a parsed document: one page per "##" section, one paragraph per block. */
function constitution(): ParsedDocument {
  const text = readFileSync(path.join(DATA, 'constitution.md'), 'utf8');
  const pages: ParsedDocument['pages'] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const para = block.trim();
    if (!para) continue;
    if (para.startsWith('#') || !pages.length) pages.push({ page: pages.length + 1, paragraphs: [] });
    pages[pages.length - 1]!.paragraphs.push(para.replace(/^#+\s*/, ''));
  }
  return { hash: 'bench-recall-constitution', name: 'constitution.md', kind: 'markdown', pages };
}

const flat = (s: string) => s.replace(/\s+/g, ' ');

async function recallAt5(url: string) {
  const model = createChatModel({ model: 'stand-in', baseURL: url, apiKey: 'k' });
  const embedder = model.embedder!('stand-in');
  const doc = indexDocument(constitution(), PAGE_SIZE);
  const vectors = await chunkVectors(doc, embedder, memoryVectorStore());
  const { questions } = JSON.parse(readFileSync(path.join(DATA, 'questions.json'), 'utf8')) as {
    questions: { question: string; answer: string }[];
  };
  const budget = doc.chunks.reduce((s, c) => s + c.tokens, 0) - 1; // less than all: the search ranks
  const totals = new Map(METHODS.map((m) => [m.name, 0]));
  const misses = new Map(METHODS.map((m) => [m.name, [] as string[]]));
  for (const { question, answer } of questions) {
    const relevant = new Set(doc.chunks.filter((c) => flat(c.content).includes(flat(answer))).map((c) => c.index));
    if (!relevant.size) throw new Error(`No chunk holds "${answer}": fix bench/data/recall/questions.json.`);
    const [q] = await embedder.embed([question]);
    const qv = normalized(q!);
    const similarity = [cosineScores(qv, vectors)];
    for (const m of METHODS) {
      const top = searchDocuments([doc], question, budget, searchPlan(m.searchers), similarity)
        .ranking.slice(0, K)
        .map((r) => r.chunk);
      const found = top.filter((c) => relevant.has(c)).length;
      totals.set(m.name, totals.get(m.name)! + found / relevant.size);
      if (!found) misses.get(m.name)!.push(question);
    }
  }
  console.log(
    `recall@${K}: ${questions.length} questions over ${doc.chunks.length} chunks of at most ${PAGE_SIZE} tokens ` +
      `(bench/data/recall), vectors from the scripted server's STAND-IN embedding model (${STAND_IN_DIMS} numbers)`,
  );
  for (const m of METHODS) {
    const r = totals.get(m.name)! / questions.length;
    console.log(
      `  ${m.name.padEnd(8)} ${r.toFixed(3)}   (${misses.get(m.name)!.length} questions with nothing relevant in the top ${K})`,
    );
  }
  return { keyword: totals.get('keyword')!, hybrid: totals.get('hybrid')! };
}

// --- speed: 10,000 chunks ---

function syntheticDocument(d: number, pages: number): ParsedDocument {
  return {
    hash: `bench-recall-${d}`,
    name: `doc-${d}.txt`,
    kind: 'text',
    pages: Array.from({ length: pages }, (_, p) => ({
      page: p + 1,
      paragraphs: Array.from(
        { length: 6 },
        () => Array.from({ length: 100 + Math.floor(random() * 40) }, zipfWord).join(' ') + '.',
      ),
    })),
  };
}

function unitVector(dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) v[i] = random() - 0.5;
  return normalized(v);
}

async function speed(url: string) {
  const docs: IndexedDocument[] = [];
  // Pages per document for about 1,000 chunks each, measured on a trial document.
  const pages = Math.round((1000 * 50) / chunkDocument(syntheticDocument(-1, 50), 500).length);
  for (let d = 0; d < 10; d++) docs.push(indexDocument(syntheticDocument(d, pages), 500));
  const chunks = docs.reduce((n, d) => n + d.chunks.length, 0);
  const queries = Array.from(
    { length: QUERIES + WARMUP },
    () =>
      `What does the handbook say about ${Array.from({ length: 4 }, () => VOCABULARY[Math.floor(random() * 3000)]).join(' ')}?`,
  );
  console.log(
    `\nsearch over ${chunks.toLocaleString('en')} chunks (10 documents, max 500 tokens per chunk), ${QUERIES} queries, ` +
      '20,000-token budget; vectors stored, question vector given',
  );
  console.log(`${''.padEnd(48)}   p50 ms    p95 ms   p95 / keyword  p50 / keyword`);
  const fmt = (ms: number) => ms.toFixed(2).padStart(8);
  let sink = 0;
  // Every method runs on each query in turn, the first one rotating, so the machine's load falls on all alike.
  const methods: { label: string; run: (q: string, i: number) => number }[] = [
    { label: 'keyword (keyword + front page, default)', run: (q) => searchDocuments(docs, q, 20_000).usedTokens },
  ];
  for (const dims of [STAND_IN_DIMS, 1024]) {
    const stored = docs.map((d) => d.chunks.map(() => unitVector(dims)));
    const qvs = queries.map(() => unitVector(dims));
    for (const searchers of [['vector_search'], ['hybrid_search', 'front_page_search']] as AvailableSearcher[][]) {
      methods.push({
        label: `${searchers.join(' + ')} (${dims} numbers)`,
        run: (q, i) => {
          const vectorScores = stored.map((vs) => cosineScores(qvs[i]!, vs));
          return searchDocuments(docs, q, 20_000, searchPlan(searchers), vectorScores).usedTokens;
        },
      });
    }
  }
  const ms = methods.map(() => [] as number[]);
  queries.forEach((q, i) => {
    for (let k = 0; k < methods.length; k++) {
      const m = (i + k) % methods.length;
      const s = performance.now();
      sink += methods[m]!.run(q, i);
      if (i >= WARMUP) ms[m]!.push(performance.now() - s);
    }
  });
  const keywordP50 = quantile(ms[0]!, 0.5);
  const keywordP95 = quantile(ms[0]!, 0.95);
  methods.forEach((m, k) => {
    const [p50, p95] = [quantile(ms[k]!, 0.5), quantile(ms[k]!, 0.95)];
    const ratios = `${(p95 / keywordP95).toFixed(1).padStart(6)}x ${(p50 / keywordP50).toFixed(1).padStart(14)}x`;
    console.log(`${m.label.padEnd(48)} ${fmt(p50)}  ${fmt(p95)}   ${ratios}`);
  });
  // The question's vector: one POST /v1/embeddings to the scripted server (loopback HTTP and the stand-in model).
  const embedder = createChatModel({ model: 'stand-in', baseURL: url, apiKey: 'k' }).embedder!('stand-in');
  const embedMs: number[] = [];
  for (const q of queries.slice(0, 60)) {
    const s = performance.now();
    sink += (await embedder.embed([q]))[0]!.length;
    embedMs.push(performance.now() - s);
  }
  console.log(
    `question embedding (one request, loopback) ${fmt(quantile(embedMs, 0.5))}  ${fmt(quantile(embedMs, 0.95))}`,
  );
  if (sink < 0) console.log(sink);
}

async function main() {
  const server = await createModelServer();
  try {
    const { keyword, hybrid } = await recallAt5(server.url);
    await speed(server.url);
    console.log(`\nhybrid beats keyword on recall@${K}: ${hybrid > keyword ? 'yes' : 'NO'}`);
    if (hybrid <= keyword) process.exitCode = 1;
  } finally {
    await server.close();
  }
}

void main();
