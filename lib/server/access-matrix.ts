// The access matrix: every route handler, server action and /v1 endpoint against each principal, as the one access
// check decides it (lib/server/access.ts) from the declared rules (lib/server/access-rules.ts). docs/security.md holds
// it between two markers; `npm run access-matrix` writes it there, test/access-matrix.test.ts fails when the file
// differs from what the rules say, and the security suite checks every cell against the built server.
import { expectedOutcome, PRINCIPALS, type AccessRule, type Outcome } from './access';
import { ACTION_RULES, ROUTE_RULES } from './access-rules';

export const MATRIX_START =
  '<!-- access-matrix: written by `npm run access-matrix` from lib/server/access-rules.ts; do not edit by hand -->';
export const MATRIX_END = '<!-- access-matrix: end -->';

const HEADINGS = ['entry point', 'for', 'anonymous', 'user', 'other user', 'admin', 'key: read', 'key: run'];
const CELL: Record<Outcome, string> = { allowed: '✓', missing: '404', 401: '401', 403: '403' };

export interface MatrixEntry {
  /** `GET /api/files/[id]`, or an action's name. */
  entry: string;
  kind: 'route' | 'action';
  rule: AccessRule;
}

/** Every entry point: the routes (the /v1 ones among them), then the server actions. */
export function entryPoints(): MatrixEntry[] {
  return [
    ...Object.entries(ROUTE_RULES).map(([entry, rule]) => ({ entry, kind: 'route' as const, rule })),
    ...Object.entries(ACTION_RULES).map(([entry, rule]) => ({ entry, kind: 'action' as const, rule })),
  ];
}

function row({ entry, kind, rule }: MatrixEntry): string[] {
  const name = kind === 'route' ? `\`${entry}\`` : `\`${entry}\` (action)`;
  return [name, rule.what, ...PRINCIPALS.map((p) => CELL[expectedOutcome(rule, p)])];
}

/** The matrix as a Markdown table, laid out as Prettier lays tables out (so the formatting check leaves it be). */
export function accessMatrix(): string {
  const rows = [HEADINGS, ...entryPoints().map(row)];
  const widths = HEADINGS.map((_, i) => Math.max(3, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n');
}

/** `doc` with the matrix between its markers replaced by the one the rules give. Throws when the markers are missing. */
export function withMatrix(doc: string): string {
  const start = doc.indexOf(MATRIX_START);
  const end = doc.indexOf(MATRIX_END);
  if (start < 0 || end < start) throw new Error(`The page has no "${MATRIX_START}" … "${MATRIX_END}" block.`);
  return `${doc.slice(0, start + MATRIX_START.length)}\n\n${accessMatrix()}\n\n${doc.slice(end)}`;
}
