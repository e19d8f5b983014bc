// The scripted model server's stand-in embedding model (POST /v1/embeddings): deterministic vectors, so tests and
// bench/recall.ts get the same numbers on every run without a real model. It is NOT a language model: a text is a
// bag of features hashed into STAND_IN_DIMS numbers: each word's concept when a small synonym table knows it
// ("worship" and "religion" are one concept), else the word's first five letters, plus the word's character
// trigrams at a lower weight (so "punish" and "punishments" share most of theirs). Related wording therefore lands
// close, which is what vector search needs to be exercised; a real embedding model does this from training.
import { createHash } from 'node:crypto';

export const STAND_IN_DIMS = 384;

/** Groups of words the stand-in treats as one concept. General English synonyms; some were added with
 *  bench/data/recall's questions in view (the bench says so), so its numbers show the pipeline, not a model. */
const SYNONYMS: readonly string[] = [
  'religion religious worship worshipping faith church creed',
  'prohibit prohibiting forbid forbidden ban banned stop prevent outlaw',
  'gun guns arms weapon weapons firearm firearms rifle',
  'own keep possess possession hold carry bear',
  'house houses home homes dwelling residence quartered housed lodged',
  'soldier soldiers troops army military',
  'peace peacetime',
  'search searches searched seizure seizures',
  'warrant warrants',
  'crime crimes offence offense offences criminal',
  'testify witness witnesses testimony',
  'myself himself herself oneself',
  'land property estate',
  'pay paying payment compensation compensate paid',
  'quick quickly speedy fast prompt soon',
  'trial tried trials',
  'lawsuit lawsuits suit suits civil',
  'cruel harsh brutal',
  'punishment punishments penalty penalties punish',
  'bail bond',
  'high excessive large big huge',
  'written listed enumeration enumerated list',
  'given granted delegated delegate grant',
  'national federal united',
  'slavery slave slaves servitude bondage',
  'abolish abolished end ended',
  'women woman female sex gender',
  'vote votes voting ballot suffrage',
  'deny denied refuse refused abridged abridge',
  'age old aged years',
  'president presidency',
  'term terms elected twice office',
  'birth born native natural',
  'press newspaper newspapers media publish',
  'censor censored censorship abridging',
  'gather gathering assemble assembly meet',
  'protest petition grievances complain complaint redress',
  'lawmaking legislative legislature law laws congress',
  'commander chief command lead leads',
  'lawyer attorney counsel defence defense',
  'accused defendant',
  'senator senators senate',
  'representative representatives house',
  'citizen citizens citizenship',
  'speech speak speaking expression',
  'jury juries jurors',
  'state states',
  'child children kid kids',
  'car cars automobile vehicle',
  'buy buying purchase purchasing',
  'begin start starting commence',
  'help assist assistance aid',
  'money dollars cash funds',
  'happy glad joyful',
  'sad unhappy sorrow',
  'ship ships vessel boat',
  'doctor physician',
];

const CONCEPT = new Map<string, string>();
for (const group of SYNONYMS) {
  const words = group.split(' ');
  for (const w of words) if (!CONCEPT.has(w)) CONCEPT.set(w, words[0]!);
}

const STOP = new Set(
  'a an and are as at be by can do does for from how i in is it may must my not of on or shall the their to was what when where which who will with without any no be'.split(
    ' ',
  ),
);

function bucket(feature: string): { index: number; sign: number } {
  const h = createHash('sha1').update(feature).digest();
  return { index: h.readUInt32LE(0) % STAND_IN_DIMS, sign: h[4]! & 1 ? 1 : -1 };
}

/** The stand-in vector of `text` (not normalized: the client normalizes, as it must for any server). */
export function standInEmbedding(text: string): number[] {
  const v = new Array<number>(STAND_IN_DIMS).fill(0);
  const add = (feature: string, weight: number) => {
    const { index, sign } = bucket(feature);
    v[index] = v[index]! + sign * weight;
  };
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (STOP.has(word) || word.length < 2) continue;
    const concept = CONCEPT.get(word);
    add(concept ? `c:${concept}` : `w:${word.slice(0, 5)}`, 2);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.4);
  }
  return v;
}
