// Text to BM25 terms, as Qwen-Agent's keyword search makes them: lower case; Chinese text segmented into words
// (Intl.Segmenter, where upstream uses jieba), other text split by a word regex (abbreviations, numbers with %,
// hyphenated words); stop words dropped; every term stemmed with Porter2 (the Snowball English stemmer upstream
// uses, from the `porter2` package).
import { stem } from 'porter2';
import { STOP_WORDS } from './stop-words';

const HAS_CHINESE = /[\u4e00-\u9fff]/;
const WORD = /(?:\p{L}\.){2,}|\d+(?:\.\d+)?%?|[\p{L}\p{N}_]+(?:[-'][\p{L}\p{N}_]+)*/gu;
const ALL_PUNCTUATION = /^[\p{P}\p{S}\s]*$/u;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

function words(text: string): string[] {
  if (HAS_CHINESE.test(text)) {
    const out: string[] = [];
    for (const s of segmenter.segment(text)) if (s.isWordLike && !ALL_PUNCTUATION.test(s.segment)) out.push(s.segment);
    return out;
  }
  return text.match(WORD) ?? [];
}

/** The BM25 terms of a text, in order, with repeats (repeats count in BM25 term frequency). */
export function terms(text: string): string[] {
  return termWords(text).map((t) => t.term);
}

/** Each term of a text with the word (lower-cased) it was made from. */
export function termWords(text: string): { word: string; term: string }[] {
  const out: { word: string; term: string }[] = [];
  for (const word of words(text.toLowerCase())) {
    if (STOP_WORDS.has(word)) continue;
    const term = stem(word);
    if (!STOP_WORDS.has(term)) out.push({ word, term });
  }
  return out;
}

/**
 * The terms of a search query. Besides plain text, the query may be Qwen-Agent's keyword JSON,
 * {"keywords_zh": [...], "keywords_en": [...], "text": "..."}, as its keyword generation writes it. Unlike upstream,
 * a multi-word keyword is split into terms (upstream keeps "core formula" as one term, which never matches a chunk).
 */
export function queryTerms(query: string): string[] {
  const trimmed = query.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as Record<string, unknown>;
      const keywords = [parsed.keywords_zh, parsed.keywords_en]
        .filter(Array.isArray)
        .flat()
        .filter((k): k is string => typeof k === 'string');
      const text = typeof parsed.text === 'string' ? parsed.text : '';
      if (keywords.length || text) return [...keywords.flatMap(terms), ...terms(text)];
    } catch {
      // not JSON: plain text
    }
  }
  return terms(trimmed);
}
