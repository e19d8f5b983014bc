// A fast estimate of Qwen's token count that does not ship the 150k-entry BPE vocabulary.
// Text is split exactly as Qwen's pre-tokenizer regex splits it (BPE merges never cross those pieces), and each
// piece gets an estimated token count from tables calibrated against the real Qwen3 tokenizer (tokens.test.ts
// measures the error). Scanning is one pass over char codes with no per-piece allocation.
import { contentText, type ContentItem, type Message } from './schema';

/** `<|im_start|>role\n` … `<|im_end|>\n` around every message in Qwen's chat template. */
export const MESSAGE_OVERHEAD_TOKENS = 5;
/** The `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>` frame of one call in the default (nous) template. */
export const FUNCTION_CALL_OVERHEAD_TOKENS = 11;
/** Upload notes such as `(Uploaded [file](name))` stand in for a non-text content item. */
export const MEDIA_ITEM_OVERHEAD_TOKENS = 4;
/** What keep-both-sides truncation puts between head and tail; it is one Qwen token. */
export const ELLIPSIS = '...';
const ELLIPSIS_TOKENS = 1;

// Character classes. Letters are split by script because their token density differs a lot.
const LOWER = 1;
const UPPER = 2;
const CJK = 3; // Han, kana, hangul
const LETTER = 4; // any other \p{L}
const DIGIT = 5; // \p{N}
const NEWLINE = 6; // \r \n
const SPACE = 7; // other \s
const PUNCT = 8; // ASCII symbol
const WIDE = 9; // non-ASCII BMP symbol (CJK punctuation, arrows, box drawing…)
const ASTRAL = 10; // symbol outside the BMP (emoji)

// Flags added to a class: the code point takes a surrogate pair; the letter is accented Latin (é, ß, ł), which
// words absorb like ASCII letters but which make them rarer in the vocabulary.
const TWO_UNITS = 16;
const ACCENTED = 32;
const CLASS_MASK = 15;

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 97 && c <= 122) ASCII_CLASS[c] = LOWER;
  else if (c >= 65 && c <= 90) ASCII_CLASS[c] = UPPER;
  else if (c >= 48 && c <= 57) ASCII_CLASS[c] = DIGIT;
  else if (c === 10 || c === 13) ASCII_CLASS[c] = NEWLINE;
  else if (c === 32 || (c >= 9 && c <= 12)) ASCII_CLASS[c] = SPACE;
  else ASCII_CLASS[c] = PUNCT;
}

// Unicode categories are looked up once per code point and cached, so a text costs regex calls only for
// characters never seen before.
const BMP_CLASS = new Uint8Array(0x10000);
const ASTRAL_CLASS = new Map<number, number>();
const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
const IS_SPACE = /^\s$/u;

function isCjkRange(cp: number): boolean {
  return (
    (cp >= 0x3040 && cp <= 0x9fff) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x20000 && cp <= 0x3134f)
  );
}

function categorize(cp: number, symbol: number): number {
  const ch = String.fromCodePoint(cp);
  if (IS_LETTER.test(ch)) {
    if (cp >= 0xc0 && cp <= 0x24f) return (ch === ch.toUpperCase() ? UPPER : LOWER) | ACCENTED;
    return isCjkRange(cp) ? CJK : LETTER;
  }
  if (IS_NUMBER.test(ch)) return DIGIT;
  if (IS_SPACE.test(ch)) return SPACE;
  return symbol;
}

function nonAsciiClass(s: string, i: number, c: number): number {
  if (c >= 0x4e00 && c <= 0x9fff) return CJK;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const lo = s.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) {
      const cp = ((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
      let k = ASTRAL_CLASS.get(cp);
      if (k === undefined) {
        k = categorize(cp, ASTRAL);
        ASTRAL_CLASS.set(cp, k);
      }
      return k + TWO_UNITS;
    }
  }
  if (c >= 0xd800 && c <= 0xdfff) return WIDE; // lone surrogate
  let k = BMP_CLASS[c]!;
  if (k === 0) {
    k = categorize(c, WIDE);
    BMP_CLASS[c] = k;
  }
  return k;
}

function classAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? ASCII_CLASS[c]! : nonAsciiClass(s, i, c);
}

function isLetterClass(k: number): boolean {
  return k >= LOWER && k <= LETTER;
}

function isSymbolClass(k: number): boolean {
  return k >= PUNCT;
}

// Costs are kept in hundredths of a token so that all scanning arithmetic stays in small integers, which V8
// keeps unboxed (fractional costs made the counter allocate and run several times slower).
const UNIT = 100;

// Tokens for an ASCII word (or camelCase part) by length, measured on English prose and code. Words right after
// a space are far more often whole vocabulary entries than words glued to other text.
const SPACED_WORD = [0, 100, 100, 100, 102, 102, 102, 103, 105, 106, 110, 115, 118, 125, 130, 150, 160];
const GLUED_WORD = [0, 100, 103, 110, 106, 110, 115, 135, 135, 160, 160, 170, 180, 220, 250, 270, 290];
const UPPER_WORD = [0, 100, 110, 115, 140, 130, 140, 150, 180, 220, 250, 280, 300, 330];
// Tokens for a run of Han/kana/hangul characters by length.
const CJK_RUN = [0, 100, 140, 215, 270, 330, 395, 450, 510];
const CJK_PER_CHAR = 56;
const TABLE_LENGTH = 128;

function extend(table: number[], perChar: number): Int32Array {
  const out = new Int32Array(TABLE_LENGTH);
  const last = table.length - 1;
  for (let len = 0; len < TABLE_LENGTH; len++)
    out[len] = len <= last ? table[len]! : table[last]! + (len - last) * perChar;
  return out;
}
const SPACED = extend(SPACED_WORD, 12);
const GLUED = extend(GLUED_WORD, 20);
const ACRONYM = extend(UPPER_WORD, 30);
const CJK_COST = extend(CJK_RUN, CJK_PER_CHAR);

function wordCost(len: number, acronym: boolean, spaced: boolean): number {
  const table = acronym ? ACRONYM : spaced ? SPACED : GLUED;
  if (len < TABLE_LENGTH) return table[len]!;
  return table[TABLE_LENGTH - 1]! + (len - TABLE_LENGTH + 1) * (acronym ? 30 : spaced ? 12 : 20);
}

function cjkCost(len: number): number {
  return len < TABLE_LENGTH ? CJK_COST[len]! : CJK_COST[TABLE_LENGTH - 1]! + (len - TABLE_LENGTH + 1) * CJK_PER_CHAR;
}

const ACCENT_COST = 70;

/** Other alphabets (Cyrillic, Greek, Arabic…): a few characters per token. */
function otherLetterCost(len: number): number {
  return 25 + 32 * len;
}

/** Estimated cost of the piece returned by the last nextPiece call (an object field: cheaper than a module binding). */
const scan = { cost: 0 };

/** Scans a letter run starting at j (after an optional lead character) and sets scan.cost. */
function letterRun(s: string, j: number, n: number, leadCost: number, spaced: boolean): number {
  let cost = leadCost;
  let word = 0; // length of the current ASCII word part
  let wordHasLower = false;
  let firstPart = spaced;
  let cjk = 0;
  let other = 0;
  let prev = 0;
  while (j < n) {
    const c = s.charCodeAt(j);
    const r = c < 128 ? ASCII_CLASS[c]! : nonAsciiClass(s, j, c);
    const k = r & CLASS_MASK;
    if (k === LOWER || k === UPPER) {
      if (cjk) {
        cost += cjkCost(cjk);
        cjk = 0;
      }
      if (other) {
        cost += otherLetterCost(other);
        other = 0;
      }
      // camelCase and ACRONYMWord boundaries start a new part, as BPE merges usually do.
      if (k === UPPER && prev === LOWER) {
        cost += wordCost(word, false, firstPart);
        word = 0;
        wordHasLower = false;
        firstPart = false;
      } else if (k === LOWER && prev === UPPER && word >= 2 && !wordHasLower) {
        cost += wordCost(word - 1, true, firstPart);
        word = 1;
        firstPart = false;
      }
      if (k === LOWER) wordHasLower = true;
      word++;
      if (r & ACCENTED) cost += ACCENT_COST;
    } else if (k === CJK || k === LETTER) {
      if (word) {
        cost += wordCost(word, !wordHasLower && word > 1, firstPart);
        word = 0;
        wordHasLower = false;
        firstPart = false;
      }
      if (k === CJK) {
        if (other) {
          cost += otherLetterCost(other);
          other = 0;
        }
        cjk++;
      } else {
        if (cjk) {
          cost += cjkCost(cjk);
          cjk = 0;
        }
        other++;
      }
    } else break;
    prev = k;
    j += r & TWO_UNITS ? 2 : 1;
  }
  if (word) cost += wordCost(word, !wordHasLower && word > 1, firstPart);
  if (cjk) cost += cjkCost(cjk);
  if (other) cost += otherLetterCost(other);
  scan.cost = cost;
  return j;
}

/** Cost of a lead character glued in front of a letter run by the pre-tokenizer. */
function leadCost(leadClass: number, leadCode: number, firstLetter: number): number {
  const asciiWord = firstLetter === LOWER || firstLetter === UPPER;
  if (leadCode === 32) return firstLetter === CJK ? 100 : 0;
  if (leadClass === PUNCT) return asciiWord ? 8 : 100;
  return 100;
}

function symbolRun(s: string, j: number, n: number): number {
  let ascii = 0;
  let wide = 0;
  let astral = 0;
  let same = true;
  const first = s.charCodeAt(j);
  while (j < n) {
    const c = s.charCodeAt(j);
    const r = c < 128 ? ASCII_CLASS[c]! : nonAsciiClass(s, j, c);
    const k = r & CLASS_MASK;
    if (k === PUNCT) {
      ascii++;
      if (c !== first) same = false;
    } else if (k === WIDE) wide++;
    else if (k === ASTRAL) astral++;
    else break;
    j += r & TWO_UNITS ? 2 : 1;
  }
  while (j < n) {
    const c = s.charCodeAt(j);
    if (c !== 10 && c !== 13) break;
    j++;
  }
  let cost = 0;
  if (ascii > 0) {
    // runs of one repeated character (----, ====, ~~~~) are in the vocabulary in long chunks
    if (same && wide === 0 && astral === 0) cost = 100 + 100 * ((ascii - 1) >> 5);
    else cost = ascii <= 2 ? 100 : 100 + 45 * (ascii - 2);
  }
  if (wide > 0) cost += ascii > 0 ? 75 * wide : 100 + 55 * (wide - 1);
  cost += 130 * astral;
  scan.cost = cost < 100 ? 100 : cost;
  return j;
}

/**
 * Returns the end of the pre-tokenizer piece starting at i and sets scan.cost. Mirrors, in order, the
 * alternatives of Qwen's pattern: contractions | lead? letters | one digit | space? symbols newlines* |
 * spaces-then-newlines | spaces not before text | spaces.
 */
function nextPiece(s: string, i: number, n: number): number {
  const c = s.charCodeAt(i);
  if (c === 39 && i + 1 < n) {
    const a = s.charCodeAt(i + 1) | 32;
    if (a === 115 || a === 116 || a === 109 || a === 100) {
      scan.cost = 100;
      return i + 2;
    }
    if (i + 2 < n) {
      const b = s.charCodeAt(i + 2) | 32;
      if ((a === 114 && b === 101) || (a === 118 && b === 101) || (a === 108 && b === 108)) {
        scan.cost = 100;
        return i + 3;
      }
    }
  }
  const r = c < 128 ? ASCII_CLASS[c]! : nonAsciiClass(s, i, c);
  const k = r & CLASS_MASK;
  const w = r & TWO_UNITS ? 2 : 1;
  if (isLetterClass(k)) return letterRun(s, i, n, 0, false);
  if (k === DIGIT) {
    scan.cost = 100;
    return i + w;
  }
  const next = i + w < n ? classAt(s, i + w) & CLASS_MASK : 0;
  if (k !== NEWLINE && isLetterClass(next)) {
    return letterRun(s, i + w, n, leadCost(k, c, next), c === 32);
  }
  if (isSymbolClass(k)) return symbolRun(s, i, n);
  if (c === 32 && isSymbolClass(next)) return symbolRun(s, i + 1, n);
  // whitespace
  let j = i;
  let lastNewline = -1;
  while (j < n) {
    const rj = classAt(s, j);
    const kj = rj & CLASS_MASK;
    if (kj === NEWLINE) lastNewline = j;
    else if (kj !== SPACE) break;
    j += rj & TWO_UNITS ? 2 : 1;
  }
  let end: number;
  if (lastNewline >= 0) end = lastNewline + 1;
  else if (j === n || j - i === 1) end = j;
  else end = j - 1; // the last space joins the following word or symbol
  const len = end - i;
  scan.cost = 100 + 100 * Math.floor((len - 1) / (lastNewline >= 0 ? 16 : 64));
  return end;
}

/** Estimate in hundredths of a token; truncation works on these unrounded sums. */
function estimate(text: string): number {
  const n = text.length;
  let total = 0;
  let i = 0;
  while (i < n) {
    i = nextPiece(text, i, n);
    total += scan.cost;
  }
  return total;
}

/** Estimated number of Qwen tokens in `text` (never more than its UTF-8 byte length). */
export function countTokens(text: string): number {
  if (!text) return 0;
  const t = Math.round(estimate(text) / UNIT);
  return t < 1 ? 1 : t;
}

/** UTF-8 byte length, a hard upper bound of the token count of any byte-level BPE. */
export function utf8Length(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

// countTokens rounds, so a span whose estimate is below budget + 0.5 still counts as within budget.
const ROUNDING_SLACK = 49;
const PARTIAL_PIECE_MIN = 150;

/** End index of the longest prefix of s whose estimate stays within `budget`. */
function prefixEnd(s: string, budget: number): number {
  const limit = budget * UNIT + ROUNDING_SLACK;
  const n = s.length;
  let acc = 0;
  let i = 0;
  while (i < n) {
    const end = nextPiece(s, i, n);
    const cost = scan.cost;
    if (acc + cost > limit) {
      // Only pieces worth several tokens (long words, CJK runs) are split; a part of a short word costs a whole token.
      if (cost <= PARTIAL_PIECE_MIN) return i;
      let cut = i + Math.floor(((limit - acc) / cost) * (end - i));
      if (cut > i && isLowSurrogate(s.charCodeAt(cut))) cut--;
      return cut;
    }
    acc += cost;
    i = end;
  }
  return n;
}

/** Start index of the longest suffix of s (whose total estimate is `total`) that stays within `budget`. */
function suffixStart(s: string, total: number, budget: number): number {
  const skip = total - budget * UNIT - ROUNDING_SLACK;
  if (skip <= 0) return 0;
  const n = s.length;
  let acc = 0;
  let i = 0;
  while (i < n) {
    const end = nextPiece(s, i, n);
    const cost = scan.cost;
    if (acc + cost >= skip) {
      if (cost <= PARTIAL_PIECE_MIN) return end;
      let cut = i + Math.ceil(((skip - acc) / cost) * (end - i));
      if (cut < n && isLowSurrogate(s.charCodeAt(cut))) cut++;
      return cut;
    }
    acc += cost;
    i = end;
  }
  return n;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function cut(text: string, budget: number, keepBothSides: boolean): string {
  if (budget <= 0) return '';
  const available = budget - ELLIPSIS_TOKENS;
  if (!keepBothSides || available <= 0) return text.slice(0, prefixEnd(text, budget));
  const left = Math.floor(available / 2);
  const right = available - left;
  const head = text.slice(0, prefixEnd(text, left));
  const tail = text.slice(suffixStart(text, estimate(text), right));
  return head + ELLIPSIS + tail;
}

/**
 * Shortens `text` to at most `maxTokens` tokens (as counted by countTokens). With keepBothSides the head and
 * the tail are kept around '...', each with half of the room, like Qwen-Agent's tokenizer.truncate.
 */
export function truncateTokens(text: string, maxTokens: number, keepBothSides = false): string {
  if (maxTokens <= 0) return '';
  if (countTokens(text) <= maxTokens) return text;
  let budget = maxTokens;
  for (;;) {
    const out = cut(text, budget, keepBothSides);
    const over = countTokens(out) - maxTokens;
    if (over <= 0) return out;
    // Joining head and tail can merge or split pieces, so shrink by the measured overshoot and retry.
    budget -= over;
  }
}

function mediaText(item: ContentItem): string {
  const value = item.image ?? item.file ?? item.video ?? item.audio;
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.join(' ') : JSON.stringify(value);
}

function contentTokens(content: Message['content'] | undefined, count: (text: string) => number): number {
  if (content === undefined) return 0;
  if (typeof content === 'string') return count(content);
  let tokens = count(contentText(content));
  for (const item of content) {
    if (item.text === undefined) tokens += MEDIA_ITEM_OVERHEAD_TOKENS + count(mediaText(item));
  }
  return tokens;
}

function messageTokens(msg: Message, count: (text: string) => number): number {
  let tokens =
    MESSAGE_OVERHEAD_TOKENS + contentTokens(msg.content, count) + contentTokens(msg.reasoning_content, count);
  if (msg.function_call) {
    tokens += FUNCTION_CALL_OVERHEAD_TOKENS + count(msg.function_call.name) + count(msg.function_call.arguments);
  }
  return tokens;
}

/**
 * Estimated tokens of one message as the model sees it: content text, reasoning, a function call's name and
 * arguments, media items as upload notes, plus the chat-template frame.
 */
export function countMessageTokens(msg: Message): number {
  return messageTokens(msg, countTokens);
}

/** An upper bound of countMessageTokens from UTF-8 byte lengths, for fast paths. */
export function messageTokenCeiling(msg: Message): number {
  return messageTokens(msg, utf8Length);
}

/** A looser upper bound that reads only string lengths: a UTF-16 code unit is at most 3 UTF-8 bytes. */
export function messageLengthCeiling(msg: Message): number {
  return messageTokens(msg, utf16Ceiling);
}

const utf16Ceiling = (text: string) => 3 * text.length;

/** The pieces Qwen's pre-tokenizer would cut `text` into (for inspection; counting does not allocate them). */
export function preTokenize(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const end = nextPiece(text, i, n);
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}
