// docs/security.md shows the access matrix generated from the declared access rules (lib/server/access-rules.ts):
// a rule changed or an entry point added without `npm run access-matrix` fails here, so the page cannot drift from
// what the one access check does. The cells themselves are checked against the built server, as each principal, by
// test/security/access-matrix.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedOutcome } from '../lib/server/access';
import { accessMatrix, entryPoints, withMatrix } from '../lib/server/access-matrix';
import { ACTION_RULES, ROUTE_RULES } from '../lib/server/access-rules';

const page = readFileSync(path.resolve(__dirname, '..', 'docs', 'security.md'), 'utf8');

describe('the access matrix', () => {
  it('docs/security.md holds the matrix the rules give (run `npm run access-matrix` after changing them)', () => {
    expect(withMatrix(page)).toBe(page);
  });

  it('has a row for every route and every server action, and nothing else', () => {
    const rows = accessMatrix().split('\n').slice(2);
    expect(rows).toHaveLength(Object.keys(ROUTE_RULES).length + Object.keys(ACTION_RULES).length);
    expect(entryPoints().map((e) => e.entry)).toEqual([...Object.keys(ROUTE_RULES), ...Object.keys(ACTION_RULES)]);
  });

  it('reads each rule as the access check does: anonymous 401, keys only where a scope is named, admin-only 403', () => {
    expect(expectedOutcome(ROUTE_RULES['POST /v1/chat/completions'], 'key-read')).toBe(403);
    expect(expectedOutcome(ROUTE_RULES['POST /v1/chat/completions'], 'key-run')).toBe('allowed');
    expect(expectedOutcome(ROUTE_RULES['GET /v1/models'], 'key-read')).toBe('allowed');
    expect(expectedOutcome(ACTION_RULES.createApiKey, 'key-run')).toBe(403);
    expect(expectedOutcome(ACTION_RULES.listUsers, 'user')).toBe(403);
    expect(expectedOutcome(ACTION_RULES.listUsers, 'admin')).toBe('allowed');
    expect(expectedOutcome(ACTION_RULES.loadConversation, 'other-user')).toBe('missing');
    expect(expectedOutcome(ACTION_RULES.loadConversation, 'anonymous')).toBe(401);
    expect(expectedOutcome(ROUTE_RULES['POST /api/auth/[...all]'], 'anonymous')).toBe('allowed');
  });
});
