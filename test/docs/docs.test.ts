// The documentation is part of the product: the README stays short, every link in it and in docs/ leads somewhere,
// and every environment variable the code reads has exactly one row in the docs' tables.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExportFileName } from '../../lib/inspect/export';
import { CHAT_AGENT_KINDS } from '../../lib/protocol/enums';
import { docExamples } from '../support/doc-examples';
import { envVarsReadByCode, documentedEnvRows, headingAnchors, markdownLinks } from './docs-check';

const root = path.resolve(__dirname, '../..');
const docsDir = path.join(root, 'docs');
const pages = [
  path.join(root, 'README.md'),
  ...readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(docsDir, f)),
];
// Every README of the checkout (the core package's, the examples') besides: a newcomer follows their links too.
const SKIPPED = new Set(['node_modules', '.git', '.next', 'dist', 'test-results']);
function readmes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? SKIPPED.has(e.name)
        ? []
        : readmes(path.join(dir, e.name))
      : e.name === 'README.md'
        ? [path.join(dir, e.name)]
        : [],
  );
}
const linkedPages = [...new Set([...pages, ...readmes(root)])];

describe('the documentation', () => {
  it('keeps the README to what a newcomer reads in five minutes (at most 300 lines)', () => {
    const lines = readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it('reads every README for links, the core package’s and the examples’ too', () => {
    expect(linkedPages.map((p) => path.relative(root, p))).toEqual(
      expect.arrayContaining(['README.md', 'packages/core/README.md', 'examples/README.md']),
    );
  });

  it('has no dead link: every relative link names a file that exists, and every #anchor a heading in it', () => {
    const dead: string[] = [];
    for (const page of linkedPages) {
      const text = readFileSync(page, 'utf8');
      for (const { target, line } of markdownLinks(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file ? path.resolve(path.dirname(page), decodeURI(file)) : page;
        const where = `${path.relative(root, page)}:${line} → ${target}`;
        if (!existsSync(resolved)) {
          dead.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md')) {
          if (!headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) dead.push(`${where} (no such heading)`);
        }
      }
    }
    expect(dead).toEqual([]);
  });

  it('documents every environment variable the code reads exactly once', () => {
    const read = envVarsReadByCode(root);
    const rows = documentedEnvRows(pages.map((p) => ({ file: path.relative(root, p), text: readFileSync(p, 'utf8') })));
    const missing = [...read].filter((name) => !rows.has(name)).sort();
    const twice = [...rows]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(missing, 'read by the code but in no table row of docs/ (add it to docs/configuration.md)').toEqual([]);
    expect(twice, 'documented in more than one table row').toEqual([]);
  });

  it('lists every builtin kind GET /v1/models answers where docs/api.md says what it lists', () => {
    const api = readFileSync(path.join(docsDir, 'api.md'), 'utf8');
    const listed = /`GET \/v1\/models` lists the builtin kinds \(([^)]*)\)/.exec(api.replace(/\n/g, ' '))?.[1] ?? '';
    const named = [...listed.matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
    expect(named).toEqual([...CHAT_AGENT_KINDS]);
  });

  it('names the file Export run downloads as the inspector names it (the run id cut to 12 characters)', () => {
    const inspector = readFileSync(path.join(docsDir, 'inspector.md'), 'utf8').replace(/\n\s*/g, ' ');
    const said = /\*\*Export run\*\* downloads the run as JSON[^`]*`(run-[^`]+\.json)`/.exec(inspector)?.[1];
    const id = '951105f4-ba9c-4d1e-8f00-5a3c1b2d7e6f';
    expect(said).toBe(runExportFileName({ run: { id } } as Parameters<typeof runExportFileName>[0]));
  });

  it('marks its TypeScript and JavaScript examples only in words test/integration/core-package.test.ts knows', () => {
    // docExamples throws on a marker it does not know (the package test, which runs them, is slow to find out).
    const examples = docExamples(root);
    expect(examples.filter((e) => e.mode === 'check').map((e) => e.doc)).toEqual(['docs/models.md']);
  });
});
