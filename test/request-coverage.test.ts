// Every way into the app goes through the request checks (lib/http/check.ts) and the one access check
// (lib/server/access.ts) with a rule declared for it (lib/server/access-rules.ts), and a route, action or page added
// later cannot be forgotten: route handlers are wrapped in guardRoute with their own method and path, server actions
// start with guardAction('<their own name>'), pages call guardPage (or an action that does), every entry point has a
// rule and every rule an entry point, and everything (pages, their data, unknown paths) but the body routes is
// matched by proxy.ts. The few ways in that come before anyone is signed in are listed here, each with its reason.
// Enumerated from the files on disk.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ACTION_RULES, ROUTE_RULES } from '../lib/server/access-rules';
import { guardedAs } from '../lib/server/route';
import { config as proxyConfig } from '../proxy';

const ROOT = path.resolve(__dirname, '..');
const APP = path.join(ROOT, 'app');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

const appFiles = filesUnder(APP).filter((f) => /\.(ts|tsx)$/.test(f));
const routeFiles = appFiles.filter((f) => /\/route\.ts$/.test(f));
const pageFiles = appFiles.filter((f) => /\/page\.tsx$/.test(f));
const actionFiles = appFiles.filter((f) => /^\s*(\/\/[^\n]*\n\s*)*['"]use server['"]/.test(readFileSync(f, 'utf8')));

/** The route pattern of an app file, as the access rules name it: app/api/files/[id]/route.ts -> /api/files/[id]. */
function patternOf(file: string): string {
  const dir = path.dirname(path.relative(APP, file));
  return `/${dir
    .split(path.sep)
    .filter((s) => !/^\(.*\)$/.test(s))
    .join('/')}`;
}

/** The URL path of an app file: app/api/files/[id]/route.ts -> /api/files/x (dynamic segments filled in). */
function urlOf(file: string): string {
  const dir = path.dirname(path.relative(APP, file));
  const segments = dir === '.' ? [] : dir.split(path.sep).filter((s) => !/^\(.*\)$/.test(s));
  return `/${segments.map((s) => (s.startsWith('[') ? 'x' : s)).join('/')}`;
}

// Next's own compilation of the matcher, so the test reads it exactly as the server does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { getMiddlewareMatchers } = require('next/dist/build/analysis/get-page-static-info') as {
  getMiddlewareMatchers(m: unknown, c: object): { regexp: string; missing?: { type: string; key: string }[] }[];
};
const matchers = getMiddlewareMatchers(proxyConfig.matcher, {});
const proxied = (pathname: string, headers: Record<string, string> = {}) =>
  matchers.some((m) => new RegExp(m.regexp).test(pathname) && !m.missing?.some((x) => x.key in headers));

/** Ways in that establish who the user is, so they cannot resolve one first. */
const PUBLIC_ROUTES: Record<string, string> = {
  'POST /api/sign-in': 'the ACCESS_TOKEN sign-in form',
  'GET /api/auth/[...all]': 'the session state, OpenID Connect',
  'POST /api/auth/[...all]': 'creating an account, signing in and out',
};
const PUBLIC_PAGES: Record<string, string> = {
  'app/sign-in/page.tsx': 'the sign-in page',
  'app/sign-up/page.tsx': 'the Create account page',
};

/** The exported functions of a file, parsed. */
function exportedStatements(rel: string): ts.Statement[] {
  const source = ts.createSourceFile(rel, readFileSync(path.join(ROOT, rel), 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements.filter((s) =>
    ts.getModifiers(s as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword),
  );
}

/** `await guardAction('name');`, `const me = await guardAction('name');`: the statement checks access first, by the
 *  rule of the action's own name. */
const GUARD = /^(const \w+ = )?await guardAction\('(\w+)'\);$/;

/** The exported actions of the action files, by name. */
function exportedActions(): string[] {
  return actionFiles.flatMap((f) =>
    exportedStatements(path.relative(ROOT, f))
      .filter(ts.isFunctionDeclaration)
      .map((fn) => fn.name!.text),
  );
}

describe('request coverage', () => {
  it('finds the app’s routes, pages and action files (the enumeration itself works)', () => {
    expect(routeFiles.map(urlOf)).toEqual(expect.arrayContaining(['/api/chat', '/api/files', '/api/health']));
    expect(pageFiles.map(urlOf)).toEqual(expect.arrayContaining(['/', '/sign-in', '/sign-up', '/account', '/admin']));
    expect(actionFiles.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['chat.ts', 'replay.ts']));
  });

  it.each(routeFiles.map((f) => [path.relative(ROOT, f)]))(
    '%s: every handler it exports is wrapped in guardRoute under its own method and path, with that rule',
    async (rel) => {
      const mod = (await import(path.join(ROOT, rel))) as Record<string, unknown>;
      const handlers = METHODS.filter((m) => m in mod);
      expect(handlers.length).toBeGreaterThan(0);
      for (const method of handlers) {
        const entry = `${method} ${patternOf(path.join(ROOT, rel))}`;
        const guarded = guardedAs(mod[method]);
        expect(guarded, `${rel} ${method}`).toBeDefined();
        expect(guarded?.entry, `${rel} ${method} names another entry point`).toBe(entry);
        expect(guarded?.rule).toBe(ROUTE_RULES[entry as keyof typeof ROUTE_RULES]);
        expect(guarded?.rule.who === 'public', `${entry}: public only when listed here`).toBe(entry in PUBLIC_ROUTES);
      }
    },
  );

  it('every route rule has its handler, and every action rule its action (a stale rule would wait for a new one)', async () => {
    const entries: string[] = [];
    for (const file of routeFiles) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS.filter((m) => m in mod)) entries.push(`${method} ${patternOf(file)}`);
    }
    expect(Object.keys(ROUTE_RULES).sort()).toEqual(entries.sort());
    const actions = exportedActions();
    expect(new Set(actions).size, 'action names are unique across files').toBe(actions.length);
    expect(Object.keys(ACTION_RULES).sort()).toEqual(actions.sort());
  });

  it('an API key reaches only routes (/v1 and the run APIs), never a server action or an admin’s entry point', () => {
    for (const [name, rule] of Object.entries(ACTION_RULES)) expect(rule, name).not.toHaveProperty('key');
    for (const [entry, rule] of Object.entries(ROUTE_RULES))
      if (rule.who === 'admin') expect(rule, entry).not.toHaveProperty('key');
    const keyed = Object.entries(ROUTE_RULES).filter(([, r]) => 'key' in r);
    for (const [entry] of keyed)
      expect(entry).toMatch(
        /^((GET|POST|DELETE) \/(v1|api\/(chat|files|runs|images|artifacts|health))|(PUT|PATCH|OPTIONS) \/v1)\b/,
      );
  });

  it('the public pages listed here exist (a stale entry would hide a new file of the same name)', () => {
    const files = pageFiles.map((f) => path.relative(ROOT, f));
    for (const rel of Object.keys(PUBLIC_PAGES)) expect(files).toContain(rel);
  });

  it.each(actionFiles.map((f) => [path.relative(ROOT, f)]))(
    '%s: every action it exports starts with the access check under its own name (guardAction)',
    (rel) => {
      const exported = exportedStatements(rel);
      expect(exported.length).toBeGreaterThan(0);
      for (const statement of exported) {
        if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
        // Only plain exported functions can be checked here; anything else must be made one.
        expect(ts.isFunctionDeclaration(statement), statement.getText().slice(0, 60)).toBe(true);
        const fn = statement as ts.FunctionDeclaration;
        const first = fn.body?.statements[0]?.getText() ?? '';
        expect(first, fn.name?.text).toMatch(GUARD);
        expect(GUARD.exec(first)?.[2], `${fn.name?.text} checks access under another action's name`).toBe(
          fn.name?.text,
        );
      }
    },
  );

  it.each(pageFiles.map((f) => [path.relative(ROOT, f)]))(
    '%s: resolves the user before it renders anything of theirs (or is a sign-in page)',
    (rel) => {
      if (PUBLIC_PAGES[rel]) return;
      const page = exportedStatements(rel).find(
        (s): s is ts.FunctionDeclaration =>
          ts.isFunctionDeclaration(s) && Boolean(s.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)),
      );
      expect(page, `${rel} has a default export`).toBeDefined();
      const body = page!.body!.getText();
      // Either the guard itself, or an action (each of which starts with the guard: asserted above).
      const actions = [
        ...readFileSync(path.join(ROOT, rel), 'utf8').matchAll(/import \{([^}]*)\} from '@\/app\/actions\/\w+'/g),
      ]
        .flatMap((m) => m[1]!.split(','))
        .map((n) => n.trim())
        .filter((n) => n && !/^guard/.test(n));
      const guarded = /await guardPage\((|'admin')\)/.test(body) || actions.some((a) => body.includes(`${a}(`));
      expect(guarded, `${rel} must call guardPage() or an action`).toBe(true);
    },
  );

  it('a GET that names a server action skips proxy.ts, so the root layout checks it', () => {
    expect(proxied('/', { 'next-action': 'x' })).toBe(false);
    const layout = readFileSync(path.join(APP, 'layout.tsx'), 'utf8');
    expect(layout).toContain("if (h.has('next-action')) await guardPage();");
  });

  it('proxy.ts matches every page, the body-less routes and any unknown path; only static files and the body routes skip it', () => {
    for (const page of pageFiles.map(urlOf)) expect(proxied(page), page).toBe(true);
    for (const url of [
      '/api/health',
      '/api/files/x',
      '/api/artifacts/x/y',
      '/api/sign-in',
      '/api/auth/x',
      '/nope',
      '/api/nope',
      '/_not-found',
      '/v1/models',
    ])
      expect(proxied(url), url).toBe(true);
    for (const url of [
      '/api/chat',
      '/api/files',
      '/api/local-models',
      '/v1/chat/completions',
      '/_next/static/chunks/app.js',
      '/icon.svg',
    ])
      expect(proxied(url), url).toBe(false);
    // What skips the proxy is checked by guardRoute (asserted above for every route file).
    const skipping = routeFiles.map(urlOf).filter((u) => !proxied(u));
    expect(skipping.sort()).toEqual(['/api/chat', '/api/files', '/api/local-models', '/v1/chat/completions']);
  });
});
