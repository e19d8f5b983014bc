// The Sources under an answer: of the passages that went into the prompt, the pages the answer drew on. A passage
// is cut at its "[page: N]" lines into one passage per page (everything that fits the budget goes in as whole
// documents, so one passage may hold pages 1 to 6), and a page is listed when
// - the answer cites it: it names the document ("report.pdf") with page numbers near the name ("report.pdf, page 3",
//   "page 3 of report.pdf", "report.pdf 第 3 页"); a document named without pages lists its pages that share words
//   with the answer, or all of them when none does;
// - or the answer says what the page says: taken greedily, the page holding the most of the answer's rarer words
//   first, then each page that adds words of the answer no page taken holds (two or more, or one that no other page
//   has), so words the answer shares with many pages ("codename", "chapter") add no page once one holding them is
//   taken.
// An answer that names no document and shares no word with any passage lists none; the retrieval card still shows
// every passage that went in. Recalled turns of a VirtualMemoryAgent are no documents (usedPassages leaves them out).
import { termWords } from '../documents/search/terms';
import type { RetrievalCandidate } from '../protocol/events';
import { answerText, usedPassages, type RunView } from './view';

const PAGE_MARKER = /^\[page: (\d+)\]$/;
/** "page 3", "pages 2-4", "p. 3", "pp. 3 and 5", "[page: 3]". */
const PAGE_REF_EN = /\b(?:pages?|pp?\.)\s*:?\s*(\d+(?:\s*(?:[-–—]|to|and|&|,)\s*\d+)*)/gi;
/** "第 3 页", "第3-4页", "第 3、5 页". */
const PAGE_REF_ZH = /第\s*(\d+(?:\s*(?:[-–—~～、,，]|至|到|和)\s*\d+)*)\s*页/g;
/** Characters around a document's name in which its page numbers are looked for. */
const BEFORE_NAME = 30;
const AFTER_NAME = 40;
const MAX_RANGE = 50;

/** The passages the run's answer drew on, one per document page, in the order they went into the prompt. */
export function answerSources(view: Pick<RunView, 'blocks'>): RetrievalCandidate[] {
  return citedPages(usedPassages(view).flatMap(pagePassages), answerText(view));
}

/** A passage cut at its "[page: N]" lines: one passage per page with text, each keeping its marker line. */
export function pagePassages(passage: RetrievalCandidate): RetrievalCandidate[] {
  const parts: { page: number | undefined; lines: string[] }[] = [];
  for (const line of passage.text.split('\n')) {
    const marker = PAGE_MARKER.exec(line);
    if (marker || !parts.length) parts.push({ page: marker ? Number(marker[1]) : passage.page, lines: [] });
    parts[parts.length - 1]!.lines.push(line);
  }
  const withText = parts.filter((p) => p.lines.some((l) => l.trim() && !PAGE_MARKER.test(l)));
  if (!withText.length) return [passage];
  const { lastPage: _lastPage, page: _page, ...rest } = passage;
  return withText.map(({ page, lines }) => {
    const text = lines.join('\n');
    return {
      ...rest,
      chunkId: withText.length > 1 ? `${passage.chunkId}@${page}` : passage.chunkId,
      ...(page !== undefined ? { page } : {}),
      text,
      tokens: Math.round((passage.tokens * text.length) / Math.max(1, passage.text.length)),
    };
  });
}

function pageNumbers(list: string): number[] {
  const out: number[] = [];
  const parts = list.split(/\s*([-–—~～]|to|至|到)\s*|\s*(?:and|&|,|、|，|和)\s*/).filter((p) => p !== undefined);
  for (let i = 0; i < parts.length; i++) {
    const n = Number(parts[i]);
    if (!Number.isInteger(n)) continue;
    const range = /^([-–—~～]|to|至|到)$/.test(parts[i + 1] ?? '') ? Number(parts[i + 2]) : NaN;
    if (Number.isInteger(range) && range >= n && range - n <= MAX_RANGE) {
      for (let p = n; p <= range; p++) out.push(p);
      i += 2;
    } else out.push(n);
  }
  return out;
}

function pageRefs(text: string): number[] {
  return [...text.matchAll(PAGE_REF_EN), ...text.matchAll(PAGE_REF_ZH)].flatMap((m) => pageNumbers(m[1]!));
}

/** Where `name` occurs in `text` as a whole name (not inside a longer one), case ignored. */
function occurrences(text: string, name: string): number[] {
  const lower = text.toLowerCase();
  const needle = name.toLowerCase();
  const out: number[] = [];
  const nameChar = /[\p{L}\p{N}_-]/u;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    const before = text[at - 1];
    const after = text[at + needle.length];
    if ((before && nameChar.test(before)) || (after && nameChar.test(after))) continue;
    out.push(at);
  }
  return out;
}

/** Per document the answer names: the pages it gives near the name (empty: named without pages). */
function citations(answer: string, files: readonly string[]): Map<string, Set<number>> {
  const found = files
    .flatMap((file) => occurrences(answer, file).map((start) => ({ file, start, end: start + file.length })))
    .sort((a, b) => a.start - b.start);
  const cited = new Map<string, Set<number>>();
  found.forEach(({ file, start, end }, i) => {
    const from = Math.max(start - BEFORE_NAME, found[i - 1]?.end ?? 0);
    const to = Math.min(end + AFTER_NAME, found[i + 1]?.start ?? answer.length);
    const pages = cited.get(file) ?? new Set<number>();
    for (const p of [...pageRefs(answer.slice(from, start)), ...pageRefs(answer.slice(end, to))]) pages.add(p);
    cited.set(file, pages);
  });
  return cited;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
/** What continues a word written in an alphabet (CJK text runs into it: "4107艘" holds "4107"). */
const WORD_CHAR = '[\\p{N}_\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}]';

interface AnswerWord {
  term: string;
  /** Whether a lower-cased text holds it. */
  in: (text: string) => boolean;
}

/** The answer's words that can tie it to a page (not the documents' names or page references, nor a bare number of
 *  one or two digits, nor a single CJK character), each found in a page's text by its word or its stem at the start
 *  of a word ("ships" finds "ship", "revenue" "revenues"; a word under four letters and a number only whole), or, in
 *  CJK text, anywhere. Only the answer is cut into
 *  words: segmenting every passage on the page would cost a CJK page hundreds of milliseconds. */
function answerWords(answer: string, files: readonly string[]): AnswerWord[] {
  let text = answer.replace(PAGE_REF_EN, ' ').replace(PAGE_REF_ZH, ' ');
  for (const file of files) {
    const at = occurrences(text, file);
    for (let i = at.length - 1; i >= 0; i--) text = `${text.slice(0, at[i])} ${text.slice(at[i]! + file.length)}`;
  }
  const out = new Map<string, AnswerWord>();
  for (const { word, term } of termWords(text)) {
    if (out.has(term) || /^\d{1,2}$/.test(term)) continue;
    if (CJK.test(word)) {
      if ([...word].length > 1) out.set(term, { term, in: (t) => t.includes(word) });
      continue;
    }
    const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // A short word or a number must be whole ("art" is not "article", "333" not "3330").
    const whole = term.length < 4 || /^[\d.,%]+$/.test(term) ? `(?!${WORD_CHAR})` : '';
    const re = new RegExp(`(?<!${WORD_CHAR})(?:${escape(word)}|${escape(term)})${whole}`, 'u');
    out.set(term, { term, in: (t) => re.test(t) });
  }
  return [...out.values()];
}

function passageText(passage: RetrievalCandidate): string {
  return passage.text
    .split('\n')
    .filter((l) => !PAGE_MARKER.test(l))
    .join('\n')
    .toLowerCase();
}

/** Of the page passages, those the answer cites or draws on (see the top of this file), in their order. */
export function citedPages(passages: readonly RetrievalCandidate[], answer: string): RetrievalCandidate[] {
  // One document page may come in several passages: they are cited together.
  const byPage = new Map<string, { file: string; page?: number; passages: RetrievalCandidate[] }>();
  for (const p of passages) {
    const key = JSON.stringify([p.fileName, p.page ?? null]);
    const group = byPage.get(key) ?? {
      file: p.fileName,
      ...(p.page !== undefined ? { page: p.page } : {}),
      passages: [],
    };
    group.passages.push(p);
    byPage.set(key, group);
  }
  const pages = [...byPage.values()];
  const files = [...new Set(pages.map((p) => p.file))].sort((a, b) => b.length - a.length);
  const cited = citations(answer, files);
  const chosen = new Set<number>();
  pages.forEach((p, i) => {
    if (p.page !== undefined && cited.get(p.file)?.has(p.page)) chosen.add(i);
  });

  const wanted = answerWords(answer, files);
  const words = pages.map((p) => {
    const text = p.passages.map(passageText).join('\n');
    return new Set(wanted.filter((w) => w.in(text)).map((w) => w.term));
  });
  const df = new Map<string, number>();
  for (const set of words) for (const w of set) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(1 + pages.length / df.get(w)!);
  const covered = new Set<string>();
  for (const i of chosen) for (const w of words[i]!) covered.add(w);
  for (;;) {
    let best = -1;
    let bestGain = 0;
    words.forEach((set, i) => {
      if (chosen.has(i)) return;
      const fresh = [...set].filter((w) => !covered.has(w));
      const telling = fresh.length >= 2 || (fresh.length === 1 && df.get(fresh[0]!) === 1);
      const gain = fresh.reduce((sum, w) => sum + idf(w), 0);
      if (telling && gain > bestGain) [best, bestGain] = [i, gain];
    });
    if (best < 0) break;
    chosen.add(best);
    for (const w of words[best]!) covered.add(w);
  }

  // A document named without a page it was given: its pages the answer drew on, else all of them.
  for (const [file, pagesCited] of cited) {
    const own = pages.map((p, i) => (p.file === file ? i : -1)).filter((i) => i >= 0);
    const pinned = own.some((i) => pagesCited.has(pages[i]!.page ?? NaN));
    if (!pinned && !own.some((i) => chosen.has(i))) for (const i of own) chosen.add(i);
  }
  const keep = new Set(pages.filter((_, i) => chosen.has(i)).flatMap((p) => p.passages));
  return passages.filter((p) => keep.has(p));
}
