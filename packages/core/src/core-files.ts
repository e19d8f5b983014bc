// The npm package's copy of lib/config/core-files.ts (the build swaps it in): the core's scripts are copied under
// dist/files/ with their checkout paths, the parse worker is dist/parse-worker.js, and optional packages (pyodide)
// resolve from where the package is installed, as its own imports do.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Every chunk of the bundle sits directly in dist/.
const dist = path.dirname(fileURLToPath(import.meta.url));

export function coreFile(...segments: string[]): string {
  return path.join(dist, 'files', ...segments);
}

export function coreRequire(): NodeJS.Require {
  return createRequire(import.meta.url);
}

export function packagedParseWorker(): string | undefined {
  return path.join(dist, 'parse-worker.js');
}
