// Builds the npm package @agent-studio/core from this checkout, without moving a file of it: lib/core/index.ts and
// everything it reaches bundled by esbuild into ESM chunks under dist/ (code split, so what the core loads lazily —
// the sandbox, the document parsers, the MCP client, the local model — stays lazy), the document-parsing worker as
// a script of its own, the scripts the core runs in child processes copied under dist/files/, and one .d.ts of the
// whole public API (dts-bundle-generator), which a strict `nodenext` TypeScript project reads as it is.
// Run: node packages/core/build.mjs (npm run build:core). Packages stay external: package.json's dependencies and
// optional peer dependencies, which this script checks against the versions the app itself pins.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const dist = path.join(here, 'dist');
const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));

/** The package's dependencies are pinned to the versions the app runs with (one list of versions: the app's). */
function checkVersions() {
  const pinned = { ...rootPkg.dependencies, ...rootPkg.devDependencies };
  const wrong = [];
  for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.peerDependencies }))
    if (pinned[name] !== version) wrong.push(`${name}: ${version} here, ${pinned[name] ?? 'absent'} in the app`);
  if (wrong.length) throw new Error(`packages/core/package.json differs from the app's pins:\n  ${wrong.join('\n  ')}`);
}

/** lib/config/core-files.ts is swapped for the package's copy, which finds the core's scripts inside dist/. */
const packageFiles = {
  name: 'package-core-files',
  setup(build) {
    build.onLoad({ filter: /[\\/]lib[\\/]config[\\/]core-files\.ts$/ }, () => ({
      contents: readFileSync(path.join(here, 'src', 'core-files.ts'), 'utf8'),
      loader: 'ts',
      resolveDir: path.join(here, 'src'),
    }));
  },
};

const requireFromRoot = createRequire(path.join(root, 'package.json'));

/** A package's subpath as Node's ESM resolver takes it: a package without an `exports` map is addressed by file, so
 *  `ajv/dist/2019` (which a bundler completes) becomes `ajv/dist/2019.js`. */
const nodeSubpaths = {
  name: 'node-subpaths',
  setup(build) {
    build.onResolve({ filter: /^(@[^/]+\/)?[^./@][^/:]*\/./ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      const manifest = JSON.parse(readFileSync(requireFromRoot.resolve(`${name}/package.json`), 'utf8'));
      if (manifest.exports || path.extname(args.path)) return { path: args.path, external: true };
      const file = requireFromRoot.resolve(args.path);
      return { path: args.path + path.extname(file), external: true };
    });
  },
};

/** Every import of a package must be one the package declares (else it would fail in a fresh project). */
function checkExternals(metafile) {
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  const missing = new Set();
  for (const out of Object.values(metafile.outputs))
    for (const imp of out.imports) {
      if (!imp.external || imp.path.startsWith('node:')) continue;
      const name = imp.path.startsWith('@') ? imp.path.split('/').slice(0, 2).join('/') : imp.path.split('/')[0];
      if (!declared.has(name)) missing.add(name);
    }
  if (missing.size)
    throw new Error(`The bundle imports packages packages/core/package.json does not declare: ${[...missing]}`);
}

async function bundle() {
  const result = await esbuild.build({
    entryPoints: {
      index: path.join(root, 'lib/core/index.ts'),
      'parse-worker': path.join(root, 'lib/documents/parse-worker.ts'),
    },
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    tsconfig: path.join(root, 'tsconfig.json'),
    chunkNames: 'chunk-[hash]',
    plugins: [packageFiles, nodeSubpaths],
    logLevel: 'warning',
  });
  checkExternals(result.metafile);
}

/** The scripts the core starts as processes or threads of their own, at their checkout paths under dist/files. */
function copyScripts() {
  for (const file of [
    'lib/sandbox/pyodide-child.mjs',
    'lib/sandbox/python-kernel.py',
    'lib/llm/local/llama-worker.mjs',
  ]) {
    mkdirSync(path.dirname(path.join(dist, 'files', file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(dist, 'files', file));
  }
}

/** One declaration file for the whole API. */
function declarations() {
  const bin = createRequire(import.meta.url).resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js');
  execFileSync(
    process.execPath,
    [
      bin,
      '--silent',
      '--no-check',
      '--project',
      path.join(here, 'tsconfig.dts.json'),
      '--no-banner',
      '--export-referenced-types=false',
      '-o',
      path.join(dist, 'index.d.ts'),
      path.join(root, 'lib/core/index.ts'),
    ],
    { stdio: 'inherit', cwd: root },
  );
}

checkVersions();
rmSync(dist, { recursive: true, force: true });
await bundle();
copyScripts();
declarations();
console.log(`built ${pkg.name}@${pkg.version} in ${path.relative(process.cwd(), dist) || '.'}`);
