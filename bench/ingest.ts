// bench/ingest: ingesting a 100-page PDF (sniff, parse with layout into paragraphs and tables, cache by hash, then
// chunk + index) against pdf.js text extraction alone (getDocument + getTextContent on every page, strings
// joined), alternating round by round in one process. Prints the median of each and the median per-round ratio.
// Target ≤ 1.5×.
// Run: npm run bench:ingest [-- --rounds 9 --pages 100]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadDocument } from '../lib/documents/load';
import { DEFAULT_PARSER_PAGE_SIZE } from '../lib/documents/search/chunk';
import { indexDocument } from '../lib/documents/search/index-cache';
import { loadPdfJs } from '../lib/documents/parse/pdf';
import type { ParsedDocument } from '../lib/documents/types';
import { makePdf, textPage, type PdfPage } from '../test/support/pdf-writer';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) || fallback : fallback;
};
const ROUNDS = arg('rounds', 9);
const PAGES = arg('pages', 100);
const WARMUP = 2;

const WORDS =
  'harbour tide pilot vessel cargo container crane berth quay channel buoy lighthouse dredging ferry tug anchor'.split(
    ' ',
  );

function sentence(seed: number): string {
  const words = Array.from({ length: 12 }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]);
  return `${words.join(' ')} ${seed}.`;
}

function makeBook(pages: number): Buffer {
  const out: PdfPage[] = [];
  for (let p = 0; p < pages; p++) {
    const paragraphs = Array.from({ length: 6 }, (_, i) =>
      Array.from({ length: 4 }, (_, j) => sentence(p * 100 + i * 10 + j)).join(' '),
    );
    out.push(textPage(`Chapter ${p + 1}`, paragraphs));
  }
  return makePdf(out, { title: 'Harbour almanac' });
}

/** The baseline: what pdf.js alone does to get the text out. */
async function pdfjsText(bytes: Uint8Array): Promise<number> {
  const { getDocument } = await loadPdfJs();
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  let chars = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    chars += content.items.map((i) => ('str' in i ? i.str : '')).join('').length;
    page.cleanup();
  }
  await doc.destroy();
  return chars;
}

// CHUNK + INDEX: the search half of issue 4 (chunking, BM25) plugs in here. When lib/documents/ingest.ts exports
// `ingestDocument(doc)`, it is timed as part of ingest; until then only sniff + parse + cache are measured.
async function ours(file: string): Promise<ParsedDocument> {
  // A fresh cache directory per round: a cache hit would measure nothing.
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'bench-ingest-cache-'));
  try {
    const doc = await loadDocument(file, 'almanac.pdf', { cacheDir });
    indexDocument(doc, DEFAULT_PARSER_PAGE_SIZE); // chunk + BM25 index, as the first question about it does
    return doc;
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-ingest-'));
  const file = path.join(dir, 'almanac.pdf');
  const bytes = makeBook(PAGES);
  await writeFile(file, bytes);
  console.log(`${PAGES}-page PDF, ${(bytes.length / 1024).toFixed(0)} KB; ours = parse + chunk + index`);
  const base: number[] = [];
  const mine: number[] = [];
  const ratios: number[] = [];
  let pages = 0;
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    // Alternate which goes first, so warm caches and GC favour neither.
    const order = round % 2 ? ['ours', 'base'] : ['base', 'ours'];
    const times: Record<string, number> = {};
    for (const which of order) {
      const t0 = performance.now();
      if (which === 'base') await pdfjsText(bytes);
      else pages = (await ours(file)).pages.length;
      times[which] = performance.now() - t0;
    }
    if (round < WARMUP) continue;
    base.push(times.base!);
    mine.push(times.ours!);
    ratios.push(times.ours! / times.base!);
  }
  await rm(dir, { recursive: true, force: true });
  console.log(`pages parsed: ${pages}`);
  console.log(`pdf.js text extraction alone: median ${median(base).toFixed(1)} ms`);
  console.log(`ingest (sniff + parse + layout + cache + chunk + index): median ${median(mine).toFixed(1)} ms`);
  console.log(
    `ratio (median of per-round ratios over ${ROUNDS} rounds): ${median(ratios).toFixed(2)}× (target ≤ 1.5×)`,
  );
}

void main();
