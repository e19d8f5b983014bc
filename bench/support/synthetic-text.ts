// Made-up text for the search benches: a deterministic generator, so every run searches the same text, and a
// vocabulary of 20,000 syllable words drawn Zipf-like (a few words are everywhere, most are rare, as in real text).

let seed = 42;
/** The next number in [0, 1) of the fixed sequence. */
export const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;

const SYLLABLES = 'ka lo mi ne ru sa ti vo ze pa qua ri den tor mel fin gar hol bes nut'.split(' ');
export const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let w = '';
  for (let n = i + 1, k = 0; n > 0 || k < 2; n = Math.floor(n / SYLLABLES.length), k++)
    w += SYLLABLES[n % SYLLABLES.length];
  return w;
});

/** A word of the vocabulary, the common ones far more often. */
export const zipfWord = () => VOCABULARY[Math.floor(VOCABULARY.length ** random()) - 1]!;
