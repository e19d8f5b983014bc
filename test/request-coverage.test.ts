// Every way into the app goes through the request checks (lib/http/check.ts) and resolves the user it acts for
// (lib/auth), and a route, action or page added later cannot be forgotten: route handlers are wrapped in guardRoute
// (which hands them the Viewer), server actions start with guardAction or guardAdmin (which return it), pages call
// one of those (or an action that does), and everything (pages, their data, unknown paths) but the two body routes is
// matched by proxy.ts. The few ways in that come before anyone is signed in are listed here, each with its reason.
// Enumerated from the files on disk.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
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
  'app/api/sign-in/route.ts': 'the ACCESS_TOKEN sign-in form',
  'app/api/auth/[...all]/route.ts': 'creating an account, signing in and out, OpenID Connect',
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

/** `await guardAction();`, `const me = await guardAdmin();`…: the statement resolves the user first. */
const GUARD = /^(const \w+ = )?await (guardAction|guardAdmin)\(\);$/;

describe('request coverage', () => {
  it('finds the app’s routes, pages and action files (the enumeration itself works)', () => {
    expect(routeFiles.map(urlOf)).toEqual(expect.arrayContaining(['/api/chat', '/api/files', '/api/health']));
    expect(pageFiles.map(urlOf)).toEqual(expect.arrayContaining(['/', '/sign-in', '/sign-up', '/account', '/admin']));
    expect(actionFiles.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['chat.ts', 'replay.ts']));
  });

  it.each(routeFiles.map((f) => [path.relative(ROOT, f)]))(
    '%s: every handler it exports is wrapped in guardRoute and resolves the user',
    async (rel) => {
      const mod = (await import(path.join(ROOT, rel))) as Record<string, unknown>;
      const handlers = METHODS.filter((m) => m in mod);
      expect(handlers.length).toBeGreaterThan(0);
      for (const method of handlers) {
        const guarded = guardedAs(mod[method]);
        expect(guarded, `${rel} ${method}`).toBeDefined();
        if (PUBLIC_ROUTES[rel]) expect(guarded?.access, `${rel} ${method}`).toBe('public');
        else expect(['user', 'admin'], `${rel} ${method} must resolve the user`).toContain(guarded?.access);
      }
    },
  );

  it('the public routes and pages listed here exist (a stale entry would hide a new file of the same name)', () => {
    const files = [...routeFiles, ...pageFiles].map((f) => path.relative(ROOT, f));
    for (const rel of [...Object.keys(PUBLIC_ROUTES), ...Object.keys(PUBLIC_PAGES)]) expect(files).toContain(rel);
  });

  it.each(actionFiles.map((f) => [path.relative(ROOT, f)]))(
    '%s: every action it exports starts by resolving the user (guardAction or guardAdmin)',
    (rel) => {
      const exported = exportedStatements(rel);
      expect(exported.length).toBeGreaterThan(0);
      for (const statement of exported) {
        if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
        // Only plain exported functions can be checked here; anything else must be made one.
        expect(ts.isFunctionDeclaration(statement), statement.getText().slice(0, 60)).toBe(true);
        const fn = statement as ts.FunctionDeclaration;
        expect(fn.body?.statements[0]?.getText() ?? '', fn.name?.text).toMatch(GUARD);
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
      const guarded = /await (guardAction|guardAdmin)\(\)/.test(body) || actions.some((a) => body.includes(`${a}(`));
      expect(guarded, `${rel} must call guardAction()/guardAdmin() or an action`).toBe(true);
    },
  );

  it('a GET that names a server action skips proxy.ts, so the root layout checks it', () => {
    expect(proxied('/', { 'next-action': 'x' })).toBe(false);
    const layout = readFileSync(path.join(APP, 'layout.tsx'), 'utf8');
    expect(layout).toContain("if (h.has('next-action')) await guardAction();");
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
