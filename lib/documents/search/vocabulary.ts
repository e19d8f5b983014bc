// A document's vocabulary: its words ranked by TF-IDF, the most characteristic first (Qwen-Agent's
// extract_doc_vocabulary, which the keyword strategies "with knowledge" show the model so that its keywords use the
// documents' own words). Words are lower-cased and kept as written (upstream lists their stems, which a model then
// copies); stop words, page markers and bare numbers are left out. With one document every word has the same IDF and
// the ranking is by frequency; with several, a word's score is its best in any of them.
import type { IndexedDocument } from './index-cache';
import { STOP_WORDS } from './stop-words';

const HAS_CHINESE = /[\u4e00-\u9fff]/;
const WORD = /\p{L}[\p{L}\p{N}_]*(?:[-'][\p{L}\p{N}_]+)*/gu;
const PAGE_MARKER = /^\[page: \d+\]$/gm;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

function words(text: string): string[] {
  const lower = text.replace(PAGE_MARKER, '').toLowerCase();
  const out: string[] = [];
  if (HAS_CHINESE.test(lower)) {
    for (const s of segmenter.segment(lower)) if (s.isWordLike && /\p{L}/u.test(s.segment)) out.push(s.segment);
  } else for (const w of lower.match(WORD) ?? []) out.push(w);
  return out.filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || HAS_CHINESE.test(w)));
}

/** The documents' words, most characteristic first. */
export function documentVocabulary(docs: readonly IndexedDocument[]): string[] {
  const counts = docs.map((doc) => {
    const tf = new Map<string, number>();
    for (const chunk of doc.chunks) for (const w of words(chunk.content)) tf.set(w, (tf.get(w) ?? 0) + 1);
    return tf;
  });
  const df = new Map<string, number>();
  for (const tf of counts) for (const w of tf.keys()) df.set(w, (df.get(w) ?? 0) + 1);
  const n = docs.length;
  const best = new Map<string, number>();
  for (const tf of counts) {
    // Smoothed IDF and an L2-normalised vector per document, as scikit-learn's TfidfVectorizer (upstream's) makes.
    const weights = [...tf].map(([w, f]) => [w, f * (Math.log((1 + n) / (1 + df.get(w)!)) + 1)] as const);
    let squares = 0;
    for (const [, x] of weights) squares += x * x;
    const norm = Math.sqrt(squares) || 1;
    for (const [w, x] of weights) best.set(w, Math.max(best.get(w) ?? 0, x / norm));
  }
  return [...best].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([w]) => w);
}
