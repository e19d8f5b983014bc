// Where the core finds what it runs outside the process's own module graph: the scripts of its child processes and
// worker threads (the Pyodide sandbox's child, the CPython kernel, the local model's worker) and the packages it
// resolves by path (pyodide). In the app these are the checkout's, from the server's working directory (Next bundles
// this module elsewhere, so its own location says nothing). The npm package (packages/core) is built with its own
// copy of this module (packages/core/src/core-files.ts), which points inside the installed package instead.
import { createRequire } from 'node:module';
import path from 'node:path';

/** A file of the core, by its path in the checkout (`coreFile('lib', 'sandbox', 'pyodide-child.mjs')`). */
export function coreFile(...segments: string[]): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), ...segments);
}

/** A `require` that resolves packages as the core's own imports do (from the project root here). */
export function coreRequire(): NodeJS.Require {
  return createRequire(path.join(/*turbopackIgnore: true*/ process.cwd(), 'package.json'));
}

/** The document-parsing worker as a script of its own: only the npm package has one (the app bundles or compiles
 *  the worker from lib/documents/parse-worker.ts). */
export function packagedParseWorker(): string | undefined {
  return undefined;
}
