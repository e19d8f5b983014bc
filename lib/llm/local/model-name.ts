// The name a local model goes by in requests and events, known without loading the model's code.
import path from 'node:path';

/** The GGUF file's name without .gguf. */
export function localModelName(file: string): string {
  return path.basename(file).replace(/\.gguf$/i, '');
}
