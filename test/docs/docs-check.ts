// Reading the docs and the code for test/docs/docs.test.ts: links, heading anchors, and environment variables.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every `[text](target)` link outside code blocks and code spans, with its line number. */
export function markdownLinks(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((raw, i) => {
    if (/^\s*```/.test(raw)) fenced = !fenced;
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: m[1]!, line: i + 1 });
  });
  return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

// Set by the platform or read by a library for its own purposes, not configuration of ours.
// The SANDBOX_* ones are what the server hands its own sandbox child process, not settings of a person's.
const NOT_OURS = new Set([
  'NODE_ENV',
  'NEXT_RUNTIME',
  'PATH',
  'HOME',
  'TMPDIR',
  'NEXT_PHASE',
  'CI',
  'SANDBOX_HEAP_BYTES',
  'SANDBOX_OUTPUT_CHARS',
  'SANDBOX_DISK_BYTES',
]);
const PRODUCT = [
  'lib',
  'tools',
  'app',
  'components',
  'scripts/start.mjs',
  'instrumentation.ts',
  'proxy.ts',
  'next.config.js',
];

function sourceFiles(root: string, rel: string): string[] {
  const full = path.join(root, rel);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith('.d.mts'))
    .map((f) => path.join(full, f));
}

/**
 * The environment variables the product's code reads: `process.env.NAME`, `env.NAME`, `env['NAME']`, and the names
 * handed to a reader with the environment as its first argument (`intFrom(env, ['A', 'B'], …)`, `flag(env, 'C')`).
 */
export function envVarsReadByCode(root: string): Set<string> {
  const names = new Set<string>();
  const add = (name: string) => {
    if (!NOT_OURS.has(name)) names.add(name);
  };
  for (const rel of PRODUCT) {
    for (const file of sourceFiles(root, rel)) {
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/\benv\??\.([A-Z][A-Z0-9_]{2,})\b/g)) add(m[1]!);
      for (const m of code.matchAll(/\benv\[['"]([A-Z][A-Z0-9_]{2,})['"]\]/g)) add(m[1]!);
      for (const m of code.matchAll(/\w+\(\s*env\s*,\s*(\[[^\]]*\]|['"][A-Z][A-Z0-9_]+['"])/g))
        for (const q of m[1]!.matchAll(/['"]([A-Z][A-Z0-9_]{2,})['"]/g)) add(q[1]!);
    }
  }
  return names;
}

/** Each variable named in the first cell of a table row (`| \`NAME\` |`, or several: `| \`A\` / \`B\` |`), with where. */
export function documentedEnvRows(pages: { file: string; text: string }[]): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const { file, text } of pages) {
    text.split('\n').forEach((line, i) => {
      const first = /^\|([^|]+)\|/.exec(line)?.[1];
      if (!first || !/^\s*`[A-Z][A-Z0-9_]{2,}`/.test(first)) return;
      for (const m of first.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g))
        rows.set(m[1]!, [...(rows.get(m[1]!) ?? []), `${file}:${i + 1}`]);
    });
  }
  return rows;
}

/** A fenced block of code as a reader copies it: its language, its code, the marker comment on the last line before its
 *  fence that is not blank (`<!-- example: … -->`, without the comment's brackets; undefined without one), and the
 *  line its fence opens on. */
export interface FencedBlock {
  lang: string;
  code: string;
  marker?: string;
  line: number;
}

/** Every fenced block in one of `langs` (```ts, ```js), in order: the examples a reader copies. */
export function fencedBlocks(markdown: string, langs: readonly string[]): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: (Omit<FencedBlock, 'code'> & { code: string[] }) | undefined;
  let fenced = false;
  let previous = '';
  markdown.split('\n').forEach((line, i) => {
    const fence = /^\s*```\s*(\S*)/.exec(line);
    if (fence && !fenced) {
      fenced = true;
      const marker = /^\s*<!--\s*(example:.*?)\s*-->\s*$/.exec(previous)?.[1];
      open = langs.includes(fence[1]!)
        ? { lang: fence[1]!, code: [], line: i + 1, ...(marker ? { marker } : {}) }
        : undefined;
    } else if (fence) {
      fenced = false;
      if (open) blocks.push({ ...open, code: `${open.code.join('\n')}\n` });
      open = undefined;
    } else open?.code.push(line);
    if (line.trim()) previous = line;
  });
  return blocks;
}
