// Finding: the servers tools talk to were read without a limit. A web search provider, SerpAPI, AMap or an MCP server
// over HTTP that answers without end filled the server's memory (read whole by `json()`, or by an MCP transport's
// event parser) until it died. Now each answer is read up to its limit (a search answer 4 MB, AMap's 1 MB, one MCP
// message 32 MB): the tool call fails with a message naming the server and the limit, the model reads it, and the run
// goes on to its answer. Here a real server on loopback answers without end, and the run is watched on a real agent
// with the scripted model server.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { loadConfig } from '../../lib/config';
import { createChatModel } from '../../lib/llm';
import { McpManager } from '../../lib/mcp/manager';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import type { ContentItem } from '../../lib/llm/schema';
import { toolSettings } from '../../tools';
import { writeEndless } from '../support/endless-response';
import { collectEvents, ofType } from '../support/run';

/** The hostile server gives up after this much: more than any limit, so a reader without one reads it all. */
const STOP_AFTER = 512 * 1024 * 1024;
const PIECE = Buffer.alloc(64 * 1024, 0x78);

let hostile: http.Server;
let base: string;
let model: ModelServer;
/** The legacy SSE transport's stream of the one session open, where answers to POSTed requests go. */
let sseStream: http.ServerResponse | undefined;
/** How many times each server was asked. */
const asked = { serpapi: 0 };

type Rpc = { id?: number; method: string; params?: { protocolVersion?: string } };

/** An ordinary answer to everything an MCP client asks before it calls a tool. */
function reply(rpc: Rpc): unknown {
  if (rpc.method === 'initialize')
    return {
      protocolVersion: rpc.params?.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'flood', version: '1.0.0' },
    };
  if (rpc.method === 'tools/list')
    return { tools: [{ name: 'flood', description: 'Answers forever', inputSchema: { type: 'object' } }] };
  return {};
}

/** A tools/call answer that never ends: one text item that goes on and on. */
const endlessCall = (res: http.ServerResponse, id: number, sse: boolean) =>
  writeEndless(
    res,
    `${sse ? 'event: message\ndata: ' : ''}{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`,
    PIECE,
    `"}]}}${sse ? '\n\n' : ''}`,
    STOP_AFTER,
  );

async function body(req: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

beforeAll(async () => {
  hostile = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const endlessJson = (head: string, tail: string) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      writeEndless(res, head, PIECE, tail, STOP_AFTER);
    };
    if (url.pathname === '/searxng/search') return endlessJson('{"results":[{"title":"', '"}]}');
    if (url.pathname === '/serpapi/search.json' && ++asked.serpapi)
      return endlessJson('{"image_results":[{"title":"', '"}]}');
    if (url.pathname.startsWith('/amap/')) return endlessJson('{"status":"1","info":"', '"}');
    // Streamable HTTP: answers as JSON (/mcp-json) or as an event stream (/mcp-events); no GET stream.
    if (url.pathname === '/mcp-json' || url.pathname === '/mcp-events') {
      if (req.method !== 'POST') return res.writeHead(405).end();
      const rpc = JSON.parse(await body(req)) as Rpc;
      if (rpc.id === undefined) return res.writeHead(202).end();
      const sse = url.pathname === '/mcp-events';
      if (rpc.method === 'tools/call') {
        res.writeHead(200, { 'content-type': sse ? 'text/event-stream' : 'application/json' });
        return endlessCall(res, rpc.id, sse);
      }
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: reply(rpc) }));
    }
    // The older SSE transport: a GET stream, where the answers to POSTed messages come.
    if (url.pathname === '/sse' && req.method === 'GET') {
      sseStream = res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.write('event: endpoint\ndata: /sse-messages\n\n');
    }
    if (url.pathname === '/sse-messages' && req.method === 'POST') {
      const rpc = JSON.parse(await body(req)) as Rpc;
      res.writeHead(202).end('Accepted');
      if (rpc.id === undefined || !sseStream) return;
      if (rpc.method === 'tools/call') return endlessCall(sseStream, rpc.id, true);
      return void sseStream.write(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: reply(rpc) })}\n\n`,
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  model = await createModelServer();
}, 60_000);

afterAll(async () => {
  hostile?.closeAllConnections();
  await new Promise((r) => hostile?.close(r));
  await model?.close();
});

const ENV = ['WEB_SEARCH_PROVIDER', 'SEARXNG_URL', 'SERPAPI_IMAGE_SEARCH_KEY', 'SERPAPI_URL', 'AMAP_TOKEN', 'AMAP_URL'];

/** An agent whose model calls `tool` once with `args`, then answers; returns the call's result, how the run ended
 *  and how much this process's memory grew at most while it ran (MB). */
async function callOnce({
  tools,
  tool,
  args,
  env = {},
  content = 'Go.',
  mcpServers,
}: {
  tools: ConstructorParameters<typeof FnCallAgent>[0]['functionList'];
  tool: string;
  args: unknown;
  env?: Record<string, string>;
  content?: string | ContentItem[];
  mcpServers?: McpManager;
}) {
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  model.reset();
  model.setScenario({
    replies: [{ toolCalls: [{ id: 'c1', name: tool, arguments: JSON.stringify(args) }] }, { content: 'Done.' }],
  });
  const rssMb = () => process.memoryUsage.rss() / 1024 / 1024;
  const before = rssMb();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 10);
  try {
    const agent = new FnCallAgent({
      llm: createChatModel({ model: 'scripted', baseURL: model.url, apiKey: 'k', fncallMode: 'native' }),
      functionList: tools,
      toolSettings: toolSettings(loadConfig(), mcpServers ? { mcpServers } : {}),
    });
    const events = await collectEvents(agent.runEvents([{ role: 'user', content }]));
    peak = Math.max(peak, rssMb());
    return {
      result: ofType(events, 'tool-result')[0]!,
      end: ofType(events, 'run-end')[0]!.reason,
      growthMb: peak - before,
    };
  } finally {
    clearInterval(timer);
    for (const k of ENV) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}

describe('a tool whose server answers without end', { timeout: 120_000 }, () => {
  it('web_search: the search fails naming the provider and its 4 MB limit, and the run goes on', async () => {
    const run = await callOnce({
      tools: ['web_search'],
      tool: 'web_search',
      args: { query: 'otters' },
      env: { WEB_SEARCH_PROVIDER: 'searxng', SEARXNG_URL: `${base}/searxng` },
    });
    expect(run.result).toMatchObject({ ok: false });
    expect(run.result.content).toContain('SearXNG answered more than 4 MB: the answer was not read further.');
    expect(run.end).toBe('answered');
    expect(run.growthMb).toBeLessThan(128);
  });

  it('image_search: SerpAPI is cut at 4 MB, and not asked again', async () => {
    const before = asked.serpapi;
    const run = await callOnce({
      tools: ['image_search'],
      tool: 'image_search',
      args: { img_idx: 0 },
      env: { SERPAPI_IMAGE_SEARCH_KEY: 'serp-key', SERPAPI_URL: `${base}/serpapi/search.json` },
      content: [{ text: 'What is this?' }, { image: 'https://photos.example/mine.jpg' }],
    });
    expect(run.result).toMatchObject({ ok: false });
    expect(run.result.content).toContain('SerpAPI answered more than 4 MB: the answer was not read further.');
    expect(asked.serpapi - before).toBe(1);
    expect(run.end).toBe('answered');
    expect(run.growthMb).toBeLessThan(128);
  });

  it('amap_weather: AMap is cut at 1 MB', async () => {
    const run = await callOnce({
      tools: ['amap_weather'],
      tool: 'amap_weather',
      args: { location: '海淀区' },
      env: { AMAP_TOKEN: 'amap-key', AMAP_URL: `${base}/amap` },
    });
    expect(run.result).toMatchObject({ ok: false });
    expect(run.result.content).toContain('AMap answered more than 1 MB: the answer was not read further.');
    expect(run.end).toBe('answered');
    expect(run.growthMb).toBeLessThan(128);
  });

  for (const [transport, server] of [
    ['streamable HTTP answering JSON', { type: 'streamable-http', url: '/mcp-json' }],
    ['streamable HTTP answering an event stream', { type: 'streamable-http', url: '/mcp-events' }],
    ['the older SSE transport', { type: 'sse', url: '/sse' }],
  ] as const)
    it(`an MCP server over ${transport}: one message is cut at 32 MB, the session dropped`, async () => {
      const manager = new McpManager({ ...loadConfig().mcp, connectTimeoutMs: 20_000, callTimeoutMs: 60_000 });
      try {
        const run = await callOnce({
          tools: [{ mcpServers: { flood: { ...server, url: `${base}${server.url}` } } }],
          tool: 'flood-flood',
          args: {},
          mcpServers: manager,
        });
        expect(run.result).toMatchObject({ ok: false });
        expect(run.result.content).toContain(
          'MCP server flood answered more than 32 MB in one message: it was not read further.',
        );
        expect(run.end).toBe('answered');
        expect(run.growthMb).toBeLessThan(256);
      } finally {
        await manager.closeAll();
      }
    });
});
