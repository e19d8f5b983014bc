// Writes a random-weights llama GGUF (the test suite's kind) to a file, to try the local model without a download:
//   npx tsx scripts/tiny-gguf/main.ts data/models/tiny.gguf [--embedding 512 --layers 8]
// It loads and generates, but writes nonsense: it is for trying the plumbing, not for answers.
import { writeTinyModel } from './tiny-model';

const [file] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const num = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : undefined;
};
if (!file) {
  console.error('usage: tsx scripts/tiny-gguf/main.ts <out.gguf> [--embedding N] [--layers N]');
  process.exit(2);
}
const embedding = num('embedding');
const model = writeTinyModel(file, {
  embedding,
  layers: num('layers'),
  ...(embedding ? { heads: 8, kvHeads: 4 } : {}),
});
console.log(`${file}: ${model.bytes.length} bytes, ${model.parameterCount} parameters, ${model.vocabularySize} tokens`);
