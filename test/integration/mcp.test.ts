// MCP end to end against real servers (test/fixtures/mcp-server.mjs): stdio, streamable HTTP and SSE; timeouts,
// isError, images, resources, a crashed server, shutdown, and an agent calling an MCP tool over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { McpConnection } from '../../lib/mcp/connection';
import { McpManager } from '../../lib/mcp/manager';
import { syncMcpRegistry } from '../../lib/mcp/registry';
import { toolsOf, type McpBaseTool } from '../../lib/mcp/tool';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import {
  BaseTool,
  TOOL_REGISTRY,
  createTool,
  defaultToolSettings,
  runTool,
  toolSettings,
  type ToolContext,
  type ToolSettings,
} from '../../tools';
import { collectEvents, ofType } from '../support/run';
import { createChatModel } from '../../lib/llm';
import { loadConfig } from '../../lib/config';

const FIXTURE = path.resolve(__dirname, '../fixtures/mcp-server.mjs');
const stdioServer = (env?: Record<string, string>) => ({
  command: process.execPath,
  args: [FIXTURE, 'stdio'],
  ...(env ? { env } : {}),
});
const opts = { connectTimeoutMs: 10_000, callTimeoutMs: 10_000 };
// Real processes on a shared 2-core machine: spawning and closing servers can take seconds.
const ctx = (signal?: AbortSignal): ToolContext => ({ files: [], lang: 'en', messages: [], signal });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** Starts the fixture in an HTTP mode; resolves with its URL once it listens. */
function startHttpFixture(
  mode: 'http' | 'sse',
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [FIXTURE, mode, '0'], { env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
  });
}

const open: McpConnection[] = [];
async function connected(
  name: string,
  config: ConstructorParameters<typeof McpConnection>[1],
  o: ConstructorParameters<typeof McpConnection>[2] = opts,
) {
  const conn = new McpConnection(name, config, o);
  open.push(conn);
  await conn.connect();
  return conn;
}
const tool = (tools: McpBaseTool[], name: string) => tools.find((t) => t.name === name)!;

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
}, 60_000);

describe('a stdio MCP server', { timeout: 60_000 }, () => {
  let conn: McpConnection;
  let tools: McpBaseTool[];
  beforeAll(async () => {
    conn = new McpConnection('fixture', stdioServer(), opts);
    await conn.connect();
    tools = toolsOf(conn);
  }, 60_000);
  afterAll(() => conn.close(), 60_000);

  it('is ready with its tools named <server>-<tool>, plus the resource tools', () => {
    expect(conn.state).toEqual({ status: 'ready', transport: 'stdio', tools: 7, resources: true });
    expect(tools.map((t) => t.name).sort()).toEqual([
      'fixture-add',
      'fixture-crash',
      'fixture-echo',
      'fixture-fail',
      'fixture-image',
      'fixture-list_resources',
      'fixture-pid',
      'fixture-read_resource',
      'fixture-slow',
    ]);
    expect(tool(tools, 'fixture-add').function).toEqual({
      name: 'fixture-add',
      description: 'Add two numbers',
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
    });
  });

  it('calls a tool with the model arguments', async () => {
    expect(await runTool(tool(tools, 'fixture-echo'), '{"text": "hi"}', ctx())).toEqual({
      ok: true,
      content: 'echo: hi',
    });
  });

  it('validates arguments against the input schema before calling', async () => {
    const r = await runTool(tool(tools, 'fixture-add'), '{"a": 1}', ctx());
    expect(r.ok).toBe(false);
    expect(r.content).toContain("missing required property 'b'");
  });

  it('returns an isError result to the model as error text', async () => {
    const r = await runTool(tool(tools, 'fixture-fail'), '{}', ctx());
    expect(r.ok).toBe(false);
    expect(r.content).toContain('McpToolError: the widget is broken');
  });

  it('keeps an image as an image item, with a line of text for the model', async () => {
    const r = await runTool(tool(tools, 'fixture-image'), '{}', ctx());
    expect(r.ok).toBe(true);
    const items = r.content as { text?: string; image?: string }[];
    expect(items[0]).toEqual({ text: 'a red square' });
    expect(items[1]!.text).toMatch(/^\[image: image\/png, \d+ bytes\]$/);
    expect(items[2]!.image).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  });

  it('lists and reads resources', async () => {
    const list = await runTool(tool(tools, 'fixture-list_resources'), '{}', ctx());
    expect(JSON.parse(list.content as string)).toEqual([
      { uri: 'note://hello', name: 'hello', description: 'A greeting', mimeType: 'text/plain' },
    ]);
    const read = await runTool(tool(tools, 'fixture-read_resource'), '{"uri": "note://hello"}', ctx());
    expect(read).toEqual({ ok: true, content: 'Hello from a resource' });
  });

  it('stops waiting when the run is aborted', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    await expect(runTool(tool(tools, 'fixture-slow'), '{"ms": 20000}', ctx(ac.signal))).rejects.toBeDefined();
    expect(Date.now() - started).toBeLessThan(5000);
    // and the server still answers
    expect((await runTool(tool(tools, 'fixture-echo'), '{"text": "after"}', ctx())).content).toBe('echo: after');
  });
});

describe('failures', { timeout: 60_000 }, () => {
  it('gives up on a call after the call timeout and says so', async () => {
    const conn = await connected('slowpoke', stdioServer(), { connectTimeoutMs: 10_000, callTimeoutMs: 300 });
    const r = await runTool(tool(toolsOf(conn), 'slowpoke-slow'), '{"ms": 20000}', ctx());
    expect(r.ok).toBe(false);
    expect(r.content).toContain('MCP server slowpoke did not answer tool slow within 300 ms');
  });

  it('reconnects once when the server process has died, and the call succeeds', async () => {
    const conn = await connected('fixture', stdioServer());
    const pidTool = tool(toolsOf(conn), 'fixture-pid');
    const first = Number((await runTool(pidTool, '{}', ctx())).content);
    expect(first).toBe(conn.pid);
    process.kill(first, 'SIGKILL');
    await waitFor(() => !alive(first));
    const second = await runTool(pidTool, '{}', ctx());
    expect(second.ok).toBe(true);
    expect(Number(second.content)).not.toBe(first);
    expect(alive(Number(second.content))).toBe(true);
  });

  it('reports a server that crashes during a call as an error, then works again', async () => {
    const conn = await connected('fixture', stdioServer());
    const tools = toolsOf(conn);
    const crash = await runTool(tool(tools, 'fixture-crash'), '{}', ctx());
    expect(crash.ok).toBe(false);
    expect(crash.content).toMatch(/Connection closed/i);
    expect((await runTool(tool(tools, 'fixture-echo'), '{"text": "back"}', ctx())).content).toBe('echo: back');
  });

  it('fails with the reason when the command does not exist', async () => {
    const conn = await connected('nope', { command: '/nonexistent/mcp-server', args: [] });
    expect(conn.state.status).toBe('failed');
    expect(conn.state.status === 'failed' && conn.state.error).toMatch(/ENOENT/);
    expect(toolsOf(conn)).toEqual([]);
  });

  it('fails after the connect timeout when the server never answers', async () => {
    const started = Date.now();
    const conn = await connected(
      'mute',
      { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
      { connectTimeoutMs: 500, callTimeoutMs: 500 },
    );
    expect(conn.state.status).toBe('failed');
    expect(conn.state.status === 'failed' && conn.state.error).toMatch(/timed out/i);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('HTTP MCP servers', { timeout: 60_000 }, () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill()));

  it('connects over streamable HTTP with the configured headers', async () => {
    const { child, port } = await startHttpFixture('http', { MCP_FIXTURE_TOKEN: 'tok' });
    children.push(child);
    const url = `http://127.0.0.1:${port}/mcp`;
    const conn = await connected('web', {
      type: 'streamable-http',
      url,
      headers: { authorization: 'Bearer tok' },
    });
    expect(conn.state).toMatchObject({ status: 'ready', transport: 'streamable-http', tools: 7 });
    expect((await runTool(tool(toolsOf(conn), 'web-add'), '{"a": 2, "b": 3}', ctx())).content).toBe('5');

    const denied = await connected('web', { type: 'streamable-http', url });
    expect(denied.state.status).toBe('failed');
    expect(denied.state.status === 'failed' && denied.state.error).toMatch(/unauthorized/);
  });

  it('falls back to SSE for a url without a type, sending the headers on both channels', async () => {
    const { child, port } = await startHttpFixture('sse', { MCP_FIXTURE_TOKEN: 'sse-tok' });
    children.push(child);
    const conn = await connected('old', {
      url: `http://127.0.0.1:${port}/sse`,
      headers: { authorization: 'Bearer sse-tok' },
    });
    expect(conn.state).toMatchObject({ status: 'ready', transport: 'sse', tools: 7 });
    expect((await runTool(tool(toolsOf(conn), 'old-echo'), '{"text": "sse"}', ctx())).content).toBe('echo: sse');
  });
});

describe('HTTP MCP servers under an address policy (the one model connections have)', { timeout: 60_000 }, () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill()));
  const strict = { allowPrivate: false, allowHosts: [] as string[], hideAddress: true };

  it('refuses a loopback URL before anything is sent, on every transport', async () => {
    let hits = 0;
    const canary = http.createServer((_req, res) => {
      hits++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    const port = (canary.address() as AddressInfo).port;
    try {
      for (const [type, host] of [
        ['streamable-http', '127.0.0.1'],
        ['sse', 'localhost'],
        [undefined, '2130706433'],
      ] as const) {
        const conn = await connected(
          'probe',
          { ...(type ? { type } : {}), url: `http://${host}:${port}/mcp` },
          {
            ...opts,
            addressPolicy: strict,
          },
        );
        expect(conn.state.status).toBe('failed');
        expect(conn.state.status === 'failed' && conn.state.error).toMatch(/Refused to fetch .*loopback/);
      }
      expect(hits).toBe(0);
    } finally {
      await new Promise((r) => canary.close(r));
    }
  });

  it('connects through the same checked fetch when the policy allows the host (streamable HTTP and SSE)', async () => {
    const allowed = { ...opts, addressPolicy: { ...strict, allowHosts: ['127.0.0.1'] } };
    const streamable = await startHttpFixture('http');
    const sse = await startHttpFixture('sse');
    children.push(streamable.child, sse.child);
    const a = await connected(
      'a',
      { type: 'streamable-http', url: `http://127.0.0.1:${streamable.port}/mcp` },
      allowed,
    );
    expect(a.state).toMatchObject({ status: 'ready', transport: 'streamable-http' });
    expect((await runTool(tool(toolsOf(a), 'a-add'), '{"a": 2, "b": 3}', ctx())).content).toBe('5');
    const b = await connected('b', { type: 'sse', url: `http://127.0.0.1:${sse.port}/sse` }, allowed);
    expect(b.state).toMatchObject({ status: 'ready', transport: 'sse' });
    expect((await runTool(tool(toolsOf(b), 'b-echo'), '{"text": "hi"}', ctx())).content).toBe('echo: hi');
  });
});

describe('the manager', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-'));
  const configPath = path.join(dir, 'mcp.json');
  let manager: McpManager;
  afterEach(() => manager?.closeAll(), 60_000);

  it('connects the config file servers, reports their state, and registers their tools', async () => {
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: { fixture: stdioServer(), broken: { command: '/nonexistent/server', args: [] } },
      }),
    );
    manager = new McpManager({ configPath, ...opts, editable: false });
    await manager.start();
    const status = manager.status();
    expect(status.map((s) => [s.name, s.state.status])).toEqual([
      ['fixture', 'ready'],
      ['broken', 'failed'],
    ]);
    expect(status[0]!.tools).toHaveLength(9);
    expect(syncMcpRegistry(manager.tools())).toEqual([]);
    const echo = createTool('fixture-echo');
    expect((await runTool(echo, '{"text": "registered"}', ctx())).content).toBe('echo: registered');

    // The server is removed from the file: its tools leave the registry.
    writeFileSync(configPath, JSON.stringify({ mcpServers: {} }));
    await manager.reload();
    syncMcpRegistry(manager.tools());
    expect(TOOL_REGISTRY.has('fixture-echo')).toBe(false);
  });

  it('keeps the running servers and reports the error when the file becomes invalid', async () => {
    writeFileSync(configPath, JSON.stringify({ mcpServers: { fixture: stdioServer() } }));
    manager = new McpManager({ configPath, ...opts, editable: false });
    await manager.start();
    writeFileSync(configPath, '{"mcpServers": {"fixture": {"command": 42}}}');
    await manager.reload();
    expect(manager.configError).toContain('fixture.command');
    expect(manager.status()[0]!.state.status).toBe('ready');
  });
});

describe('shutdown', { timeout: 60_000 }, () => {
  it('ends the stdio children of every manager the process made when it is terminated', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-host-'));
    const configPath = path.join(dir, 'mcp.json');
    // The child ignores the end of its stdin, so only our exit hooks can end it.
    writeFileSync(configPath, JSON.stringify({ mcpServers: { fixture: stdioServer({ MCP_FIXTURE_LINGER: '1' }) } }));
    const host = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/mcp-host.ts'], {
      env: { ...process.env, MCP_CONFIG: configPath },
    });
    const line = await new Promise<string>((resolve, reject) => {
      host.stdout.on('data', (d: Buffer) => resolve(d.toString()));
      host.once('exit', (code) => reject(new Error(`host exited ${code}`)));
    });
    const { pids, states } = JSON.parse(line) as { pids: number[]; states: string[] };
    expect(states).toEqual(['ready', 'ready']);
    expect(pids).toHaveLength(2);
    expect(pids.every(alive)).toBe(true);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      host.once('exit', (_code, signal) => resolve(signal)),
    );
    host.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM'); // our handler re-raised: the host still ends as SIGTERM says
    expect(await waitFor(() => !pids.some(alive))).toBe(true);
  });
});

describe('an agent with MCP tools', { timeout: 60_000 }, () => {
  let model: ModelServer;
  beforeAll(async () => {
    model = await createModelServer();
  });
  afterAll(() => model.close());

  it('takes {mcpServers} in functionList (as Qwen-Agent does) and calls the tool over a real run', async () => {
    model.setScenario({
      replies: [
        { content: '', toolCalls: [{ id: 'c1', name: 'calc-add', arguments: '{"a": 2, "b": 40}' }] },
        { content: 'The sum is 42.' },
      ],
    });
    const agent = new FnCallAgent({
      llm: createChatModel({ model: 'scripted', baseURL: model.url, apiKey: 'k', fncallMode: 'native' }),
      functionList: [{ mcpServers: { calc: stdioServer() } }],
    });
    const events = await collectEvents(agent.runEvents([{ role: 'user', content: '2 + 40?' }]));
    expect(ofType(events, 'run-start')[0]!.tools).toContain('calc-add');
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ name: 'calc-add', ok: true, content: '42' });
    expect(ofType(events, 'run-end')[0]!.reason).toBe('answered');
    // Made with no settings (a plain script), the agent took the environment's, and its manager was made in them.
    await defaultToolSettings().mcpServers?.closeAll();
  });

  it("connects an entry's servers with the manager of the agent's settings: shared by those settings, not beyond", async () => {
    const llm = () => createChatModel({ model: 'scripted', baseURL: model.url, apiKey: 'k', fncallMode: 'native' });
    /** The pid of the server process that answered an agent given `settings`. */
    const serverPid = async (settings: ToolSettings) => {
      model.setScenario({
        replies: [{ content: '', toolCalls: [{ id: 'c1', name: 'calc-pid', arguments: '{}' }] }, { content: 'ok' }],
      });
      const agent = new FnCallAgent({
        llm: llm(),
        functionList: [{ mcpServers: { calc: stdioServer() } }],
        toolSettings: settings,
      });
      const events = await collectEvents(agent.runEvents([{ role: 'user', content: 'pid?' }]));
      const result = ofType(events, 'tool-result')[0]!;
      expect(result).toMatchObject({ name: 'calc-pid', ok: true });
      return Number(result.content);
    };
    // Two roots of one process (two app contexts, two scripts' settings): each makes its own settings.
    const first = toolSettings(loadConfig());
    const second = toolSettings(loadConfig());
    try {
      const pid = await serverPid(first);
      expect(alive(pid)).toBe(true);
      expect(await serverPid(first)).toBe(pid); // a second agent with the same settings: the same server
      const other = await serverPid(second);
      expect(other).not.toBe(pid);
      // Closing one root's manager ends its servers only.
      await first.mcpServers!.closeAll();
      expect(await waitFor(() => !alive(pid))).toBe(true);
      expect(alive(other)).toBe(true);
    } finally {
      await Promise.all([first.mcpServers?.closeAll(), second.mcpServers?.closeAll()]);
    }
  });

  it("keeps the function list's order: an entry's tools stand where the entry stands, and a later tool of the same name replaces one", async () => {
    class LocalAdd extends BaseTool {
      name = 'calc-add';
      description = 'Adds here, not on the server';
      parameters = {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      };
      async call() {
        return 'added here';
      }
    }
    model.reset();
    model.setScenario({
      replies: [
        { content: '', toolCalls: [{ id: 'c1', name: 'calc-add', arguments: '{"a": 2, "b": 40}' }] },
        { content: 'ok' },
      ],
    });
    const settings = toolSettings(loadConfig());
    try {
      const agent = new FnCallAgent({
        llm: createChatModel({ model: 'scripted', baseURL: model.url, apiKey: 'k', fncallMode: 'native' }),
        functionList: [{ mcpServers: { calc: stdioServer() } }, 'calculator', new LocalAdd()],
        toolSettings: settings,
      });
      const events = await collectEvents(agent.runEvents([{ role: 'user', content: '2 + 40?' }]));
      // Upstream's function_map is a dict filled in list order: the entry's tools before calculator, and the later
      // calc-add replacing the server's in its place.
      const offered = (model.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
      expect(offered.at(-1)).toBe('calculator');
      expect(offered.slice(0, -1).every((n) => n.startsWith('calc-'))).toBe(true);
      expect(offered.filter((n) => n === 'calc-add')).toHaveLength(1);
      expect(ofType(events, 'tool-result')[0]).toMatchObject({ name: 'calc-add', ok: true, content: 'added here' });
    } finally {
      await settings.mcpServers?.closeAll();
    }
  });

  it('rejects a bad {mcpServers} entry when the agent is made, saying what is wrong', () => {
    expect(
      () =>
        new FnCallAgent({ llm: createChatModel(), functionList: [{ mcpServers: { 'bad name': { command: 'x' } } }] }),
    ).toThrow(/bad name: a server name may hold only letters, digits and _/);
  });

  it('ends the run with the reason when a functionList server cannot start', async () => {
    const agent = new FnCallAgent({
      llm: createChatModel({ model: 'scripted', baseURL: model.url, apiKey: 'k' }),
      functionList: [{ mcpServers: { gone: { command: '/nonexistent/server', args: [] } } }],
    });
    const events = await collectEvents(agent.runEvents([{ role: 'user', content: 'hi' }]));
    const end = ofType(events, 'run-end')[0]!;
    expect(end.reason).toBe('error');
    expect(end.error?.message).toMatch(/MCP server gone failed: .*ENOENT/);
  });
});
