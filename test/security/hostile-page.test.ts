// Finding: a web page stalled the whole server. web_extractor read pages with Readability on the server's main
// thread, and its time grows far faster than the page: 2,000 nested blocks (30 KB) took over a minute, a 5 MB page
// of paragraphs seconds, and meanwhile no request of anyone was answered. A page is anything a model is led to
// fetch (a search result, a link in a document, a prompt-injected instruction). Now the page is read in a worker of
// the parse pool under a time limit, then as plain text: the server answers everyone while it works.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, startApp, type App } from './support/app';

// Nested blocks of one word each, and a word of its own at the bottom (45 KB): Readability took 10 s for 1,000 of
// them and two minutes for 2,000 on the main thread; this page would hold the old server far longer than the test.
const DEPTH = 3_000;
const HOSTILE = `<html><body>${'<div>word '.repeat(DEPTH)}bottommost${'</div>'.repeat(DEPTH)}</body></html>`;

let app: App;
let pages: http.Server;
let pageUrl: string;
let fetched: () => void;
const pageFetched = new Promise<void>((resolve) => (fetched = resolve));

/** Tool results the app has stored so far. */
function storedToolResults(): number {
  const db = new Database(path.join(app.dataDir, 'agent-studio.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM run_events WHERE type = 'tool-result'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  pages = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOSTILE);
    fetched();
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/nested.html`;
  // The page's server is on loopback here; on the web it is anywhere.
  app = await startApp({ env: { WEB_FETCH_ALLOW_HOSTS: '127.0.0.1' } });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((r) => pages?.close(r));
});

describe('a web page that takes Readability minutes', () => {
  it('does not stall the server: other requests are answered while it is read, and its text comes back', async () => {
    app.model.setScenario({
      replies: [
        { toolCalls: [{ id: 'call-1', name: 'web_extractor', arguments: JSON.stringify({ url: pageUrl }) }] },
        { content: 'Read it.' },
      ],
    });
    const order: string[] = [];
    const run = request(app.url, '/api/chat', {
      headers: { origin: app.url, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Read this page', tools: ['web_extractor'] }),
    }).then((res) => {
      order.push('run answered');
      return res;
    });
    await pageFetched;
    // Once the page is in, the server reads it; meanwhile it answers everyone else.
    await new Promise((r) => setTimeout(r, 500));
    const health = await request(app.url, '/api/health');
    order.push('health answered');
    expect(health.status).toBe(200);
    // Answered while the page was still being read: its result is not there yet.
    expect(storedToolResults()).toBe(0);
    const res = await run;
    expect(order).toEqual(['health answered', 'run answered']);
    expect(res.status).toBe(200);
    const tool = app.model.requests.at(-1)?.body.messages as { role: string; content: string }[];
    const result = tool.find((m) => m.role === 'tool')?.content ?? '';
    expect(result).toContain(`URL: ${pageUrl}`);
    expect(result).toContain('\nword bottommost');
  }, 120_000);
});
