// Configuration is passed in (issue 29, item 2): each app context's tools take their settings from the configuration
// the context was built with, not from the process's environment. Two contexts in one process, built as the app's
// root builds them over real SQLite files, with different fetch policies and web search: each run follows its own.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { loadConfig } from '../../lib/config';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { WebSearchTool } from '../../tools';
import { drain, follow } from '../support/chat';
import { ofType } from '../support/run';

const OWNER = ownerScope('owner-a');
let server: ModelServer;
let page: http.Server;
let pageUrl: string;
const dirs: string[] = [];
const stores: ChatStore[] = [];

beforeAll(async () => {
  server = await createModelServer();
  // A page on loopback: the SSRF guard refuses it unless the configuration allows private addresses.
  const html =
    '<!doctype html><html><head><title>Tides</title></head><body><article><h1>Tides</h1>' +
    `<p>${'The harbour tide table lists the times of high and low water for each day. '.repeat(4)}</p>` +
    '<p>High water at 06:12.</p></article></body></html>';
  page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/tides`;
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await server.close();
  await new Promise((resolve) => page.close(resolve));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function context(env: Record<string, string>): Promise<AppContext> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'config-passed-in-'));
  dirs.push(dataDir);
  const store = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
  stores.push(store);
  const config = loadConfig({
    DATA_DIR: dataDir,
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'k',
    OPENAI_MODEL: 'scripted',
    LLM_MAX_RETRIES: '0',
    MODEL_SCAN_PORTS: 'off',
    ...env,
  });
  return createAppContext(config, store);
}

/** What web_extractor told the model in a run of `ctx` that fetches the page. */
async function extracted(ctx: AppContext): Promise<string> {
  server.setScenario({
    replies: [
      { toolCalls: [{ name: 'web_extractor', arguments: JSON.stringify({ url: pageUrl }) }] },
      { content: 'Done.' },
    ],
  });
  const started = await ctx.chat.send(everyToolActor(OWNER), {
    message: 'When is high water?',
    settings: { tools: ['web_extractor'] },
  });
  const events = await drain(follow(ctx.chat, OWNER, started.runId));
  const [result] = ofType(events, 'tool-result');
  return JSON.stringify(result?.content);
}

describe("each context's tools follow the configuration it was built with", () => {
  it('the fetch policy: one context may fetch a private address, the other in the same process may not', async () => {
    const open = await context({ WEB_FETCH_ALLOW_PRIVATE: '1' });
    const closed = await context({});
    expect(await extracted(open)).toContain('High water at 06:12.');
    expect(await extracted(closed)).toMatch(/Refused to fetch 127\.0\.0\.1: loopback address/);
    // And again in the other order: neither context's setting leaked into the process.
    expect(await extracted(open)).toContain('High water at 06:12.');
  });

  it('web search: offered where the configuration names a provider, not where it names none', async () => {
    const searching = await context({ WEB_SEARCH_PROVIDER: 'searxng', SEARXNG_URL: 'http://127.0.0.1:9' });
    const plain = await context({});
    expect(WebSearchTool.unavailableReason(searching.tools)).toBeUndefined();
    expect(WebSearchTool.unavailableReason(plain.tools)).toMatch(/no search provider/);
  });
});
