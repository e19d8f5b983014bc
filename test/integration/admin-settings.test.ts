// What the Settings and Models views tell someone who is not the admin (no server paths, variables or addresses),
// and web search set up from the admin page (kept on the server, the key sealed, in force for web_search), as the
// app builds its services (lib/server/context.ts) over a real SQLite file.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeViewer, type Viewer } from '../../lib/auth/viewer';
import { loadConfig } from '../../lib/config';
import { appInfo } from '../../lib/server/app-info';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { integrationsStatus } from '../../lib/server/integrations';
import { openStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { WebSearchTool } from '../../tools';

const userTools = { codeInterpreter: true, web: true };
const ADMIN: Viewer = makeViewer({ owner: ownerScope('admin'), admin: true, via: 'session', userTools });
const USER: Viewer = makeViewer({ owner: ownerScope('user'), admin: false, via: 'session', userTools });
const SEARCH_KEY = 'tvly-secret-0123456789';

const stores: ChatStore[] = [];
let ctx: AppContext | undefined;

async function context(env: Record<string, string> = {}): Promise<AppContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'admin-settings-'));
  const config = loadConfig({ DATA_DIR: dataDir, MODEL_SCAN_PORTS: 'off', ...env });
  const store = await openStore(dataDir);
  stores.push(store);
  ctx = await createAppContext(config, store);
  return ctx;
}

afterEach(async () => {
  // The admin page's web search setting is kept in the store: back to the environment's.
  await ctx?.webSearch.save({ provider: 'environment' });
});
afterAll(async () => {
  for (const s of stores) await s.close();
});

describe('what someone who is not the admin is told', () => {
  const env = {
    OPENAI_BASE_URL: 'http://10.1.2.3:8000/v1',
    OPENAI_MODEL: 'internal-model',
    WEB_SEARCH_PROVIDER: 'tavily', // without its key: off, with a reason naming the variable
  };

  it('Settings: no server path, variable or install command; the admin gets them', async () => {
    const c = await context(env);
    const user = JSON.stringify([await appInfo(c, USER), await integrationsStatus(c, USER)]);
    expect(user).not.toContain(c.config.mcp.configPath);
    expect(user).not.toContain(c.config.dataDir);
    expect(user).not.toMatch(/TAVILY_API_KEY|apt-get|CODE_INTERPRETER_BACKEND/);
    const info = await appInfo(c, USER);
    expect(info.codeInterpreter).toEqual({ backend: expect.stringMatching(/^(python|pyodide)$/) });
    expect((await integrationsStatus(c, USER)).webSearch).toEqual({ enabled: false, provider: null, problem: null });

    const admin = await integrationsStatus(c, ADMIN);
    expect(admin.mcp.configPath).toBe(c.config.mcp.configPath);
    expect(admin.webSearch.problem).toContain('TAVILY_API_KEY');
    expect((await appInfo(c, ADMIN)).codeInterpreter).toHaveProperty('install');
    // web_search is marked not available now (an agent's or a conversation's tick of it): why, to the admin only.
    expect(info.notOffered).toContainEqual({ name: 'web_search', why: 'unavailable' });
    expect((await appInfo(c, ADMIN)).notOffered).toContainEqual({
      name: 'web_search',
      why: 'unavailable',
      refusal: {
        message: expect.stringMatching(
          /^Tool web_search is not available: WEB_SEARCH_PROVIDER=tavily needs TAVILY_API_KEY/,
        ),
        code: 'tool-unavailable',
        values: {
          name: 'web_search',
          reason: expect.stringMatching(/^WEB_SEARCH_PROVIDER=tavily needs TAVILY_API_KEY/),
        },
      },
    });
  });

  it('Models: a connection they cannot edit is listed without its address; the admin sees it', async () => {
    // Loopback for everyone's connections, so the user's own one below is saved (the address policy is not this test's).
    const c = await context({ ...env, ALLOW_PRIVATE_MODEL_URLS: '1' });
    const [asUser] = await c.models.pageConnections(USER);
    expect(asUser).toMatchObject({ id: 'env', source: 'environment', baseURL: '' });
    expect(JSON.stringify(await c.models.pageConnections(USER))).not.toContain('10.1.2.3');
    const [asAdmin] = await c.models.pageConnections(ADMIN);
    expect(asAdmin?.baseURL).toBe('http://10.1.2.3:8000/v1');
    // Their own connection keeps its address (they typed it).
    await c.models.addConnection(USER, { name: 'Mine', baseURL: 'http://127.0.0.1:9/v1', saveAnyway: true });
    expect((await c.models.pageConnections(USER)).find((x) => x.name === 'Mine')?.baseURL).toBe(
      'http://127.0.0.1:9/v1',
    );
  });
});

describe('web search from the admin page', () => {
  it('is kept on the server with its key sealed, and put in force over the environment', async () => {
    const c = await context({ WEB_SEARCH_PROVIDER: '' });
    expect(WebSearchTool.unavailableReason(c.tools)).toMatch(/no search provider/);
    await expect(c.webSearch.save({ provider: 'tavily' })).rejects.toMatchObject({
      status: 400,
      message: 'tavily needs its API key.',
    });
    // Saved anyway: the test search it would make goes to Tavily's own endpoint (the probe is tested below).
    const view = await c.webSearch.save({ provider: 'tavily', apiKey: SEARCH_KEY, saveAnyway: true });
    expect(view).toEqual({
      source: 'page',
      provider: 'tavily',
      url: '',
      keySet: true,
      enabled: true,
      problem: null,
    });
    expect(JSON.stringify(view)).not.toContain(SEARCH_KEY);
    // Stored sealed; not in what the admin actions hand the page.
    const stored = (await c.store.serverSettings()).webSearch;
    expect(stored?.apiKeyCipher).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(SEARCH_KEY);
    expect(await c.admin.settings()).not.toHaveProperty('webSearch');
    // In force: web_search is offered and would call Tavily with the key.
    expect(WebSearchTool.unavailableReason(c.tools)).toBeUndefined();
    expect(c.webSearch.current().search).toMatchObject({ provider: 'tavily', apiKey: SEARCH_KEY });
    expect((await appInfo(c, ADMIN)).tools.map((t) => t.name)).toContain('web_search');

    // Saved again without a key: the kept one stays.
    await c.webSearch.save({ provider: 'tavily', url: 'https://search.example.com/api', saveAnyway: true });
    expect(c.webSearch.current().search).toMatchObject({ url: 'https://search.example.com/api', apiKey: SEARCH_KEY });

    // Off, whatever the environment says; then the environment's again.
    await c.webSearch.save({ provider: 'off' });
    expect(WebSearchTool.unavailableReason(c.tools)).toMatch(/turned off on the admin page/);
    expect(await c.webSearch.save({ provider: 'environment' })).toMatchObject({ source: 'environment' });
    expect(WebSearchTool.unavailableReason(c.tools)).toMatch(/no search provider/);
  });

  it('refuses a SearXNG without its URL, a URL that is not http(s), and an unknown provider', async () => {
    const c = await context();
    await expect(c.webSearch.save({ provider: 'searxng' })).rejects.toThrow(/SearXNG needs its URL/);
    await expect(c.webSearch.save({ provider: 'searxng', url: 'file:///etc/passwd' })).rejects.toThrow(
      /starts with http/,
    );
    await expect(c.webSearch.save({ provider: 'bing' as never })).rejects.toThrow(/one of off, searxng/);
    expect((await c.store.serverSettings()).webSearch).toBeUndefined();
    const saved = await c.webSearch.save({ provider: 'searxng', url: 'http://localhost:8888', saveAnyway: true });
    expect(saved).toMatchObject({ provider: 'searxng', url: 'http://localhost:8888', enabled: true });
  });

  it('is read again from the store: another instance sharing the database sees the admin’s change', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'admin-settings-shared-'));
    const store = await openStore(dataDir);
    stores.push(store);
    const one = await createAppContext(loadConfig({ DATA_DIR: dataDir, MODEL_SCAN_PORTS: 'off' }), store);
    await one.webSearch.save({ provider: 'searxng', url: 'http://localhost:8888', saveAnyway: true });
    ctx = one;
    // Another instance sharing the database: nothing in force until it reads the store.
    const two = await createAppContext(loadConfig({ DATA_DIR: dataDir, MODEL_SCAN_PORTS: 'off' }), store);
    expect(two.webSearch.current().search).toBeUndefined();
    expect(WebSearchTool.unavailableReason(two.tools)).toMatch(/no search provider/);
    await integrationsStatus(two, USER);
    expect(two.webSearch.current().search).toMatchObject({ provider: 'searxng', url: 'http://localhost:8888' });
    expect(WebSearchTool.unavailableReason(two.tools)).toBeUndefined();
  });

  it('asks the provider a test search on save: one that fails is refused, saying how, unless saved anyway', async () => {
    // A SearXNG-like responder on loopback (the admin may name any address, as for the environment's provider).
    const asked: string[] = [];
    const searxng = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      asked.push(url.pathname + url.search);
      if (url.pathname === '/ok/search' && url.searchParams.get('format') === 'json')
        return res.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}');
      if (url.pathname === '/html/search') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
      res.writeHead(403).end('json is not among the formats');
    });
    await new Promise<void>((resolve) => searxng.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(searxng.address() as AddressInfo).port}`;
    try {
      const c = await context({ WEB_SEARCH_PROVIDER: '' });
      const refused = async (url: string) => {
        const e = await c.webSearch.save({ provider: 'searxng', url }).catch((e: unknown) => e);
        expect(e).toBeInstanceOf(Error);
        expect((await c.store.serverSettings()).webSearch).toBeUndefined(); // nothing kept
        expect(WebSearchTool.unavailableReason(c.tools)).toMatch(/no search provider/);
        return e as Error & { status: number; code: string; values: Record<string, unknown> };
      };

      // The review's address: nothing can answer there. Refused with a sentence naming it, not "fetch failed".
      const down = await refused('http://127.0.0.1:9');
      expect(down).toMatchObject({ status: 400, code: 'web-search-unreachable' });
      expect(down.values).toMatchObject({ provider: 'SearXNG', url: 'http://127.0.0.1:9' });
      expect(down.message).toBe(
        'SearXNG at http://127.0.0.1:9 did not answer a test search (fetch refuses to connect to port 9 (a port ' +
          'browsers block too): run the server on another port). Is it running, and is the URL right? If it is only ' +
          'down for now, save it anyway.',
      );
      const http = await refused(`${base}/forbidden`);
      expect(http).toMatchObject({ code: 'web-search-http', values: { status: 403 } });
      expect(http.message).toBe(
        `SearXNG at ${base}/forbidden answered a test search with HTTP 403 (json is not among the formats). Check ` +
          'the URL and the key. If it is only down for now, save it anyway.',
      );
      expect(await refused(`${base}/html`)).toMatchObject({ code: 'web-search-not-json' });

      // Saved anyway: kept and in force, though down.
      expect(
        await c.webSearch.save({ provider: 'searxng', url: 'http://127.0.0.1:9', saveAnyway: true }),
      ).toMatchObject({ provider: 'searxng', url: 'http://127.0.0.1:9', enabled: true });
      // One that answers is saved at once, after one test search.
      asked.length = 0;
      expect(await c.webSearch.save({ provider: 'searxng', url: `${base}/ok` })).toMatchObject({ enabled: true });
      expect(asked).toEqual(['/ok/search?q=test&format=json']);
      // Off and the environment's ask nothing.
      await c.webSearch.save({ provider: 'off' });
      await c.webSearch.save({ provider: 'environment' });
      expect(asked).toHaveLength(1);
    } finally {
      searxng.closeAllConnections();
      await new Promise((r) => searxng.close(r));
    }
  });
});
