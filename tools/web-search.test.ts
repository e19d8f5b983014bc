// web_search against a fake provider: a local HTTP server speaking SearXNG's, Tavily's, Serper's and Brave's APIs.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config';
import { createTool } from './registry';
import { runTool } from './run-tool';
import { toolSettings } from './settings';
import { WebSearchTool } from './web-search';
import './index'; // registers the builtin tools

let server: Server;
let base: string;
const seen: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({ path: req.url ?? '', headers: req.headers, body });
    const send = (data: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(data));
    if (url.pathname === '/searxng/search' && url.searchParams.get('format') === 'json')
      return send({
        query: url.searchParams.get('q'),
        results: [
          {
            title: 'Otter - Wikipedia',
            url: 'https://en.wikipedia.org/wiki/Otter',
            content: 'Otters are carnivorous mammals.',
          },
          { title: 'Sea otter', url: 'https://example.org/sea-otter', content: 'The sea otter is a marine mammal.' },
        ],
      });
    if (url.pathname === '/tavily' && req.method === 'POST') {
      if (req.headers.authorization === 'Bearer tvly-wrong-but-secret-0123456789')
        // A provider repeating the key it was sent: the server's key.
        return res.writeHead(401).end(`{"detail":"bad key ${req.headers.authorization.slice(7)}"}`);
      if (req.headers.authorization !== 'Bearer tv-key') return res.writeHead(401).end('{"detail":"bad key"}');
      return send({ results: [{ title: 'Tavily hit', url: 'https://t.example/1', content: 'from tavily' }] });
    }
    if (url.pathname === '/serper' && req.method === 'POST')
      return send({ organic: [{ title: 'Serper hit', link: 'https://s.example/1', snippet: 'from serper' }] });
    if (url.pathname === '/brave')
      return send({
        web: {
          results: [{ title: 'Brave hit', url: 'https://b.example/1', description: 'from <strong>brave</strong>' }],
        },
      });
    if (url.pathname === '/html/search')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    res.writeHead(500).end('boom');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const KEYS = [
  'WEB_SEARCH_PROVIDER',
  'SEARXNG_URL',
  'WEB_SEARCH_URL',
  'TAVILY_API_KEY',
  'SERPER_API_KEY',
  'BRAVE_API_KEY',
];
const saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});
/** The tool settings of the environment as the test left it, made as a composition root makes them. */
const settings = () => toolSettings(loadConfig());
const search = (query: string) =>
  runTool(new WebSearchTool(), JSON.stringify({ query }), {
    files: [],
    lang: 'en',
    messages: [],
    settings: settings(),
  });

describe('web_search', () => {
  it('searches SearXNG through its JSON API and returns title, URL and snippet', async () => {
    process.env.WEB_SEARCH_PROVIDER = 'searxng';
    process.env.SEARXNG_URL = `${base}/searxng`;
    const r = await search('otters');
    expect(r.ok).toBe(true);
    expect(JSON.parse(r.content as string)).toEqual({
      query: 'otters',
      provider: 'searxng',
      results: [
        {
          title: 'Otter - Wikipedia',
          url: 'https://en.wikipedia.org/wiki/Otter',
          snippet: 'Otters are carnivorous mammals.',
        },
        { title: 'Sea otter', url: 'https://example.org/sea-otter', snippet: 'The sea otter is a marine mammal.' },
      ],
    });
    expect(seen.at(-1)!.path).toBe('/searxng/search?q=otters&format=json');
  });

  it('speaks Tavily, Serper and Brave with their keys', async () => {
    process.env.WEB_SEARCH_PROVIDER = 'tavily';
    process.env.TAVILY_API_KEY = 'tv-key';
    process.env.WEB_SEARCH_URL = `${base}/tavily`;
    expect(JSON.parse((await search('q')).content as string).results).toEqual([
      { title: 'Tavily hit', url: 'https://t.example/1', snippet: 'from tavily' },
    ]);
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ query: 'q', max_results: 8 });

    process.env.WEB_SEARCH_PROVIDER = 'serper';
    process.env.SERPER_API_KEY = 'sp-key';
    process.env.WEB_SEARCH_URL = `${base}/serper`;
    expect(JSON.parse((await search('q')).content as string).results[0].url).toBe('https://s.example/1');
    expect(seen.at(-1)!.headers['x-api-key']).toBe('sp-key');

    process.env.WEB_SEARCH_PROVIDER = 'brave';
    process.env.BRAVE_API_KEY = 'br-key';
    process.env.WEB_SEARCH_URL = `${base}/brave`;
    expect(JSON.parse((await search('q')).content as string).results[0].snippet).toBe('from brave');
    expect(seen.at(-1)!.headers['x-subscription-token']).toBe('br-key');
  });

  it('returns a provider error to the model as text', async () => {
    process.env.WEB_SEARCH_PROVIDER = 'tavily';
    process.env.TAVILY_API_KEY = 'wrong';
    process.env.WEB_SEARCH_URL = `${base}/tavily`;
    const r = await search('q');
    expect(r.ok).toBe(false);
    expect(r.content).toBe(`Tavily at ${new URL(base).host} answered HTTP 401: {"detail":"bad key"}`);
    // The server's key, should the provider repeat it, is not told to the model or the page.
    process.env.TAVILY_API_KEY = 'tvly-wrong-but-secret-0123456789';
    const repeated = await search('q');
    expect(repeated.content).toContain('answered HTTP 401: {"detail":"bad key [key hidden]"}');
    expect(repeated.content).not.toContain('secret-0123');
  });

  it('says which provider at which host did not answer, and why, with no error id (nothing of ours failed)', async () => {
    // A port where nothing listens: a listener opened, then closed.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    process.env.WEB_SEARCH_PROVIDER = 'searxng';
    process.env.SEARXNG_URL = `http://127.0.0.1:${port}`;
    const r = await search('otters');
    expect(r).toMatchObject({ ok: false, error: { kind: 'failed', type: 'SearchProviderError' } });
    expect(r.content).toBe(`SearXNG at 127.0.0.1:${port} did not answer: connection refused`);

    // A port fetch never connects to (the review's http://127.0.0.1:9): said so, not "fetch failed".
    process.env.SEARXNG_URL = 'http://127.0.0.1:9';
    expect((await search('otters')).content).toBe(
      'SearXNG at 127.0.0.1:9 did not answer: fetch refuses to connect to port 9 (a port browsers block too): run the ' +
        'server on another port.',
    );

    // Something answers, with an error or with no JSON.
    process.env.SEARXNG_URL = `${base}/elsewhere`;
    expect((await search('otters')).content).toBe(`SearXNG at ${new URL(base).host} answered HTTP 500: boom`);
    process.env.SEARXNG_URL = `${base}/html`;
    expect((await search('otters')).content).toBe(`SearXNG at ${new URL(base).host} did not answer JSON`);
  });

  it('is not available without a provider, and asking for it gets a clear error', () => {
    delete process.env.WEB_SEARCH_PROVIDER;
    expect(WebSearchTool.unavailableReason(settings())).toMatch(
      /no search provider\. Set WEB_SEARCH_PROVIDER to searxng/,
    );
    expect(() => createTool('web_search', settings())).toThrow(/Tool web_search is not available: no search provider/);
    process.env.WEB_SEARCH_PROVIDER = 'tavily';
    expect(WebSearchTool.unavailableReason(settings())).toMatch(/^WEB_SEARCH_PROVIDER=tavily needs TAVILY_API_KEY\./);
  });
});
