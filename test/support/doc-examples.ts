// The TypeScript and JavaScript examples of the docs a developer copies into a project of theirs (README.md,
// packages/core/README.md, every docs/*.md), and what test/integration/core-package.test.ts does with each in its
// fresh project. A marker, an HTML comment on the line just before the fence (a rendered page does not show it, so the
// doc says the same in words), tells it:
//   (none)                                  type-checked and run: it exits 0 and writes nothing on stderr
//   <!-- example: prints "Sunny." -->       … and what it prints holds that
//   <!-- example: plugin -->                a plugin module: type-checked, then loaded as the app loads one, its
//                                           agent asked (may be followed by prints "…")
//   <!-- example: not run (why) -->         type-checked only: it needs what a test run has not (the doc says what)
// A marker the test does not know fails it, so a typo cannot turn an example's run off.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fencedBlocks } from '../docs/docs-check';

/** The languages of the examples and the extension each is copied under. */
const LANGS: Record<string, 'ts' | 'mjs'> = { ts: 'ts', typescript: 'ts', js: 'mjs', javascript: 'mjs', mjs: 'mjs' };

export interface DocExample {
  /** The doc it is in, from the checkout's root, and the line its fence opens on. */
  doc: string;
  line: number;
  code: string;
  /** The file it is copied to in the project. */
  file: string;
  /** run: run as a program; plugin: loaded as a plugin; check: type-checked only. */
  mode: 'run' | 'plugin' | 'check';
  /** What it must print, when its marker says. */
  prints?: string;
}

/** The docs whose examples are checked: the two READMEs and every page of docs/. */
export function exampleDocs(root: string): string[] {
  const pages = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'));
  return ['README.md', 'packages/core/README.md', ...pages.sort().map((f) => `docs/${f}`)];
}

function parseMarker(marker: string | undefined, where: string): Pick<DocExample, 'mode' | 'prints'> {
  if (!marker) return { mode: 'run' };
  const m = /^example:\s*(plugin\b|not run\b)?\s*(?:\(.*\))?\s*(?:prints "(.*)")?\s*$/.exec(marker);
  if (!m || (!m[1] && m[2] === undefined))
    throw new Error(
      `${where}: unknown marker <!-- ${marker} --> (say "example: prints \\"…\\"", "example: plugin" or "example: not run (why)")`,
    );
  const mode = m[1] === 'plugin' ? 'plugin' : m[1] === 'not run' ? 'check' : 'run';
  if (mode === 'check' && (m[2] !== undefined || !/\(.+\)/.test(marker)))
    throw new Error(`${where}: "example: not run" says why in brackets, and prints nothing`);
  return { mode, ...(m[2] !== undefined ? { prints: m[2] } : {}) };
}

/** Every example of the docs, in order, with the file it is copied to and what is done with it. */
export function docExamples(root: string, docs: readonly string[] = exampleDocs(root)): DocExample[] {
  return docs.flatMap((doc) =>
    fencedBlocks(readFileSync(path.join(root, doc), 'utf8'), Object.keys(LANGS)).map((block, i) => ({
      doc,
      line: block.line,
      code: block.code,
      file: `example-${doc.replace(/\.md$/, '').replace(/\W+/g, '-')}-${i + 1}.${LANGS[block.lang]}`,
      ...parseMarker(block.marker, `${doc}:${block.line}`),
    })),
  );
}
