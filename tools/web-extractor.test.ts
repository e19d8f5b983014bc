// web_extractor and the SSRF guard against a real local HTTP server. The server is on loopback, which the default
// policy refuses: the happy paths allow private addresses explicitly, the refusals run under the default policy.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch, type SafeFetchOptions } from '../lib/net/safe-fetch';
import { loadConfig } from '../lib/config';
import { runTool } from './run-tool';
import { toolSettings } from './settings';
import { WebExtractorTool } from './web-extractor';

let server: Server;
let port: number;
let base: string;
const hits: string[] = [];

const PAGE = `<!doctype html><html><head><title>Otters of the river</title><script>var secret = 'SCRIPT';</script>
<style>body { color: red }</style></head><body>
<nav><a href="/">Home</a> · <a href="/about">About</a></nav>
<article><h1>Otters of the river</h1>
<p>${'River otters are semi-aquatic mammals that live along rivers, lakes and wetlands. '.repeat(6)}</p>
<p>They eat fish, crayfish and frogs, and they can hold their breath for eight minutes.</p>
<ul><li>Playful</li><li>Fast swimmers</li></ul></article>
<footer>Copyright nobody</footer></body></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/page') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    if (url.pathname === '/plain') return res.writeHead(200, { 'content-type': 'text/plain' }).end('just text');
    if (url.pathname === '/pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7');
    if (url.pathname === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end('y'.repeat(5000));
    if (url.pathname === '/to-loopback') return res.writeHead(302, { location: `http://127.0.0.1:${port}/page` }).end();
    if (url.pathname === '/to-page') return res.writeHead(301, { location: '/page' }).end();
    if (url.pathname === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (url.pathname === '/to-file') return res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (url.pathname === '/slow') return; // never answers
    res.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const saved = { ...process.env };
afterEach(() => {
  for (const k of ['WEB_FETCH_ALLOW_PRIVATE', 'WEB_FETCH_ALLOW_HOSTS', 'WEB_FETCH_MAX_BYTES', 'WEB_FETCH_TIMEOUT_MS']) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

/** The tools' settings from the environment as the test left it (WEB_FETCH_*), as a composition root makes them. */
const extract = (url: string) =>
  runTool(new WebExtractorTool(), JSON.stringify({ url }), {
    files: [],
    lang: 'en',
    messages: [],
    settings: toolSettings(loadConfig()),
  });

describe('web_extractor (private addresses allowed by configuration)', () => {
  it('returns the title and the main text, without scripts, styles or navigation', async () => {
    process.env.WEB_FETCH_ALLOW_PRIVATE = '1';
    const r = await extract(`${base}/page`);
    expect(r.ok).toBe(true);
    const text = r.content as string;
    expect(text).toMatch(new RegExp(`^URL: ${base}/page\nTitle: Otters of the river\n`));
    expect(text).toContain('They eat fish, crayfish and frogs');
    expect(text).toContain('- Fast swimmers');
    expect(text).not.toContain('SCRIPT');
    expect(text).not.toContain('color: red');
    expect(text).not.toContain('About');
  });

  it('follows a redirect and reports the final URL', async () => {
    process.env.WEB_FETCH_ALLOW_PRIVATE = '1';
    const r = await extract(`${base}/to-page`);
    expect(r.content).toMatch(new RegExp(`^URL: ${base}/page\n`));
  });

  it('returns plain text as it is, refuses binary types, and reports HTTP errors', async () => {
    process.env.WEB_FETCH_ALLOW_PRIVATE = '1';
    expect((await extract(`${base}/plain`)).content).toBe(`URL: ${base}/plain\n\njust text`);
    const pdf = await extract(`${base}/pdf`);
    expect(pdf.ok).toBe(false);
    expect(pdf.content).toContain('is not a web page (content-type application/pdf)');
    const missing = await extract(`${base}/missing`);
    expect(missing.ok).toBe(false);
    expect(missing.content).toContain('answered HTTP 404');
  });

  it('reads at most WEB_FETCH_MAX_BYTES and says so', async () => {
    process.env.WEB_FETCH_ALLOW_PRIVATE = '1';
    process.env.WEB_FETCH_MAX_BYTES = '1000';
    const r = await extract(`${base}/big`);
    expect(r.content).toContain(`\n\n${'y'.repeat(1000)}\n\n(only the first 1000 bytes of the page were read)`);
  });

  it('gives up after WEB_FETCH_TIMEOUT_MS', async () => {
    process.env.WEB_FETCH_ALLOW_PRIVATE = '1';
    process.env.WEB_FETCH_TIMEOUT_MS = '200';
    const r = await extract(`${base}/slow`);
    expect(r.ok).toBe(false);
    expect(r.content).toContain('Timed out after 200 ms');
  });

  it('stops at the redirect limit and refuses non-http schemes, even after a redirect', async () => {
    process.env.WEB_FETCH_ALLOW_PRIVATE = '1';
    expect((await extract(`${base}/loop`)).content).toContain('Too many redirects (more than 5)');
    expect((await extract(`${base}/to-file`)).content).toContain('Only http and https URLs can be fetched (got file)');
    expect((await extract('file:///etc/passwd')).content).toContain('Only http and https URLs can be fetched');
    expect((await extract('ftp://example.com/x')).content).toContain('Only http and https URLs can be fetched');
  });
});

describe('SSRF refusals under the default policy', () => {
  it.each([
    ['127.0.0.1', () => `${base}/page`, /Refused to fetch 127\.0\.0\.1: loopback address/],
    ['::1', () => `http://[::1]:${port}/page`, /Refused to fetch ::1: loopback address/],
    ['10.0.0.1', () => 'http://10.0.0.1/admin', /Refused to fetch 10\.0\.0\.1: private address/],
    ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/', /link-local \(cloud metadata\) address/],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${port}/page`, /loopback \(IPv4 inside IPv6\) address/],
    [
      'a name resolving to loopback',
      () => `http://localhost:${port}/page`,
      /Refused to fetch localhost \((127\.0\.0\.1|::1)\): loopback/,
    ],
  ])('refuses %s before connecting', async (_label, url, message) => {
    const before = hits.length;
    const r = await extract(url());
    expect(r.ok).toBe(false);
    expect(r.content).toMatch(message);
    expect(hits.length).toBe(before); // nothing reached the server
  });

  const opts = (extra: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
    allowPrivate: false,
    allowHosts: [],
    maxBytes: 100_000,
    timeoutMs: 5000,
    maxRedirects: 5,
    ...extra,
  });
  // Names resolved by a custom lookup: "public.test" stands for a public host that happens to be our test server.
  const resolve = async (host: string) => {
    if (host === 'public.test' || host === 'evil.test') return [{ address: '127.0.0.1', family: 4 }];
    throw new Error(`ENOTFOUND ${host}`);
  };

  it('refuses a redirect to loopback from an allowed host', async () => {
    const first = `http://public.test:${port}/to-loopback`;
    await expect(safeFetch(first, opts({ resolve, allowHosts: ['public.test'] }))).rejects.toThrow(
      /Refused to fetch 127\.0\.0\.1: loopback address/,
    );
    expect(hits.at(-1)).toBe('/to-loopback'); // the first hop was made, the redirect target never was
  });

  it('refuses a name that a custom lookup resolves to loopback', async () => {
    await expect(safeFetch(`http://evil.test:${port}/page`, opts({ resolve }))).rejects.toThrow(
      /Refused to fetch evil\.test \(127\.0\.0\.1\): loopback address/,
    );
  });

  it('connects to the address it checked (one lookup per hop, pinned; no second lookup to rebind)', async () => {
    let lookups = 0;
    const counting = async (host: string) => {
      lookups++;
      return resolve(host);
    };
    const res = await safeFetch(
      `http://public.test:${port}/page`,
      opts({ resolve: counting, allowHosts: ['public.test'] }),
    );
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('Otters of the river');
    expect(lookups).toBe(1); // the system resolver, which does not know public.test, was never asked
  });
});
