// The agent core as a program runs it: lib/core bundled by esbuild (as `npm run build:core` makes the package, and as
// the app's server build compiles it), not as tsx compiles it on the fly. tsx keeps every function's name by calling
// a helper on each closure as it is made, which production code never pays; the loop makes a few closures per model
// call, so under tsx a bench of the loop measured the transform more than the loop.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

type Core = typeof import('../../lib/core');

/** Builds lib/core/index.ts into node_modules/.cache (where its packages resolve) and imports it. */
export function builtCore(): Promise<Core> {
  return builtModule<Core>('lib/core/index.ts', 'core');
}

/** Builds one module of the repository (`file`, from its root) as builtCore builds the core, and imports it. */
export async function builtModule<T>(file: string, name: string): Promise<T> {
  const root = path.resolve(import.meta.dirname, '../..');
  const outdir = path.join(root, 'node_modules/.cache/agent-studio-bench', `${process.pid}-${name}`);
  mkdirSync(outdir, { recursive: true });
  // Kept while the process runs (the core loads some chunks on first use), gone when it ends.
  process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
  await esbuild.build({
    entryPoints: { [name]: path.join(root, file) },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
  return (await import(pathToFileURL(path.join(outdir, `${name}.js`)).href)) as T;
}
