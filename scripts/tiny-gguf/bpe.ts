// A byte-level BPE vocabulary (the GPT-2 / Qwen kind llama.cpp calls "gpt2") learnt from a small text: the 256
// byte symbols, then the most frequent adjacent pairs merged one at a time. The tiny models use it so that their
// tokenizer section is real: llama.cpp tokenizes with these merges, and any text (every byte has a token) encodes.

/** GPT-2's byte → printable character map: printable Latin-1 bytes stand for themselves, the rest move past 255. */
export function byteSymbols(): string[] {
  const symbols: string[] = new Array(256);
  let next = 256;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    symbols[b] = String.fromCodePoint(printable ? b : next++);
  }
  return symbols;
}

// Close to the pre-tokenizer split of Qwen (llama.cpp's "qwen2"): a word with at most one leading non-letter,
// single digits, punctuation runs with an optional leading space, newlines, other spaces.
const PIECES = /[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

export interface BpeVocab {
  /** The byte symbols first, then one token per merge, in merge order. */
  tokens: string[];
  /** "left right", in rank order. */
  merges: string[];
}

/** Learns `mergeCount` merges from `corpus` (fewer if the text runs out of pairs that occur twice). */
export function learnBpe(corpus: string, mergeCount: number): BpeVocab {
  const symbols = byteSymbols();
  const counts = new Map<string, number>();
  for (const piece of corpus.match(PIECES) ?? []) {
    const word = [...Buffer.from(piece, 'utf8')].map((b) => symbols[b]!).join('\u0000');
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  let words = [...counts].map(([w, n]) => ({ parts: w.split('\u0000'), n }));
  const tokens = [...symbols];
  const merges: string[] = [];
  while (merges.length < mergeCount) {
    const pairs = new Map<string, number>();
    for (const { parts, n } of words)
      for (let i = 0; i + 1 < parts.length; i++) {
        const key = `${parts[i]} ${parts[i + 1]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + n);
      }
    let best = '';
    let bestCount = 1;
    for (const [key, n] of pairs)
      if (n > bestCount || (n === bestCount && best && key < best)) [best, bestCount] = [key, n];
    if (!best) break;
    const [left, right] = best.split(' ') as [string, string];
    merges.push(best);
    tokens.push(left + right);
    words = words.map(({ parts, n }) => {
      const merged: string[] = [];
      for (let i = 0; i < parts.length; i++) {
        if (i + 1 < parts.length && parts[i] === left && parts[i + 1] === right) {
          merged.push(left + right);
          i++;
        } else merged.push(parts[i]!);
      }
      return { parts: merged, n };
    });
  }
  return { tokens, merges };
}
