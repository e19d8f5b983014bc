// Configuration is passed in (issue 29, item 2): each app context's tools take their settings from the configuration
// the context was built with, not from the process's environment. Two contexts in one process, built as the app's
// root builds them over real SQLite files, with different fetch policies, web search and MCP servers (the real MCP
// fixture over stdio): each run follows its own, and nothing process-wide is reset between them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
const contexts: AppContext[] = [];
const MCP_FIXTURE = path.resolve(__dirname, '../fixtures/mcp-server.mjs');

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
  for (const c of contexts) await c.mcp.closeAll();
  for (const s of stores) await s.close();
  await server.close();
  await new Promise((resolve) => page.close(resolve));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function context(env: Record<string, string>, mcpServers?: string[]): Promise<AppContext> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'config-passed-in-'));
  dirs.push(dataDir);
  if (mcpServers) {
    const servers = Object.fromEntries(
      mcpServers.map((name) => [name, { command: process.execPath, args: [MCP_FIXTURE, 'stdio'] }]),
    );
    await writeFile(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
    env = { ...env, MCP_CONFIG: path.join(dataDir, 'mcp.json') };
  }
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
  const ctx = await createAppContext(config, store);
  contexts.push(ctx);
  return ctx;
}

/** What the tool told the model in a run of `ctx` that calls it once with `args`. */
async function toolResult(ctx: AppContext, tool: string, args: Record<string, unknown>): Promise<string> {
  server.setScenario({
    replies: [{ toolCalls: [{ name: tool, arguments: JSON.stringify(args) }] }, { content: 'Done.' }],
  });
  const started = await ctx.chat.send(everyToolActor(OWNER), { message: 'Go on.', settings: { tools: [tool] } });
  const events = await drain(follow(ctx.chat, OWNER, started.runId));
  const [result] = ofType(events, 'tool-result');
  return JSON.stringify(result?.content);
}

/** What web_extractor told the model in a run of `ctx` that fetches the page. */
const extracted = (ctx: AppContext) => toolResult(ctx, 'web_extractor', { url: pageUrl });

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

  it('MCP servers: each context connects the servers of its own MCP_CONFIG, and its agents use its manager', async () => {
    const alpha = await context({}, ['alpha']);
    const beta = await context({}, ['beta']);
    expect(await toolResult(alpha, 'alpha-echo', { text: 'from a' })).toContain('echo: from a');
    expect(await toolResult(beta, 'beta-echo', { text: 'from b' })).toContain('echo: from b');
    expect(alpha.mcp.status().map((s) => [s.name, s.state.status])).toEqual([['alpha', 'ready']]);
    expect(beta.mcp.status().map((s) => [s.name, s.state.status])).toEqual([['beta', 'ready']]);
    // Their agents' {mcpServers} entries connect with the context's manager, not one of the process's.
    expect(alpha.tools.mcpServers).toBe(alpha.mcp);
    expect(beta.tools.mcpServers).toBe(beta.mcp);
    // One context closing its servers leaves the other's running.
    await alpha.mcp.closeAll();
    expect(beta.mcp.pids()).toHaveLength(1);
    expect(await toolResult(beta, 'beta-echo', { text: 'still here' })).toContain('echo: still here');
  });
});
