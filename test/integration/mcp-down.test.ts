// A run whose tools come from an MCP server that is down when the run starts. Before, the server's tools were simply
// missing from the registry and the run was refused as the caller's mistake: 400 "Tool files-echo is not registered."
// Now the server is connected once more at run start; still down, the run is refused with 503 `mcp-server-down`
// naming the server (/v1 in OpenAI's shape, POST /api/chat and the page's server actions with the code the page says
// in its language); once it is up, the next run calls its tool. A real MCP server (test/fixtures/mcp-server.mjs over
// streamable HTTP), the real handlers behind test/support/api-server.ts, a real SQLite store, the scripted model
// server over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../app/actions/action-error';
import { everyToolActor } from '../../lib/chat/actor';
import { saveAgentDefinition } from '../../lib/chat/saved-agents';
import { loadConfig } from '../../lib/config';
import { errorResponse } from '../../lib/http/respond';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { startApiServer, type ApiServer } from '../support/api-server';

const FIXTURE = path.resolve(__dirname, '../fixtures/mcp-server.mjs');
const A = ownerScope('user-a');
const DOWN =
  'MCP server files could not be reached, so its tool files-echo cannot run now. Try again once it is up; the settings panel shows its state.';

let dir: string;
let port: number;
let store: ChatStore;
let ctx: AppContext;
let api: ApiServer;
let model: ModelServer;
let fixture: ChildProcess | undefined;

/** A port nothing listens on (taken, then let go). */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return free;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp-down-'));
  port = await freePort();
  const configPath = path.join(dir, 'mcp.json');
  writeFileSync(
    configPath,
    JSON.stringify({ mcpServers: { files: { type: 'streamable-http', url: `http://127.0.0.1:${port}/mcp` } } }),
  );
  model = await createModelServer();
  store = await openSqliteStore(path.join(dir, 'chat.db'));
  const config = loadConfig({
    DATA_DIR: dir,
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'k',
    OPENAI_MODEL: 'scripted',
    MCP_CONFIG: configPath,
    MCP_CONNECT_TIMEOUT_MS: '5000',
  });
  ctx = await createAppContext(config, store);
  api = await startApiServer(ctx, { 'key-a': everyToolActor(A) });
  await saveAgentDefinition(store, A, undefined, { name: 'Files', kind: 'fncall', tools: ['files-echo'] });
}, 60_000);

afterAll(async () => {
  fixture?.kill();
  await api?.close();
  await ctx?.mcp.closeAll();
  await store?.close();
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a run whose MCP server is down when it starts', { timeout: 60_000 }, () => {
  it('/v1 answers 503 server_error mcp_server_down naming the server, not 400 "not registered"', async () => {
    const client = new OpenAI({ baseURL: api.url, apiKey: 'key-a', maxRetries: 0 });
    const failed = await client.chat.completions
      .create({ model: 'Files', messages: [{ role: 'user', content: 'echo hi' }] })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
    expect(failed).toMatchObject({
      status: 503,
      type: 'server_error',
      code: 'mcp_server_down',
      error: { message: DOWN },
    });
  });

  it('POST /api/chat and the page’s server actions say it with its code, in the page’s language', async () => {
    const e = await ctx.chat
      .send(everyToolActor(A), { message: 'echo hi', settings: { tools: ['files-echo'] } })
      .catch((err: unknown) => err);
    const answer = errorResponse(e, 'POST /api/chat');
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ error: { message: DOWN, code: 'mcp-server-down' } });
    expect(failure(e)).toEqual({
      ok: false,
      error: DOWN,
      status: 503,
      code: 'mcp-server-down',
      values: { server: 'files', tool: 'files-echo' },
    });
  });

  it('once the server is up, the next run connects it and calls its tool', async () => {
    fixture = spawn(process.execPath, [FIXTURE, 'http', String(port)]);
    await new Promise<void>((resolve, reject) => {
      fixture!.stdout!.on('data', (d: Buffer) => /listening/.test(d.toString()) && resolve());
      fixture!.once('exit', (code) => reject(new Error(`fixture exited ${code}`)));
    });
    model.setScenario({
      replies: [
        { content: '', toolCalls: [{ id: 'c1', name: 'files-echo', arguments: '{"text": "hi"}' }] },
        { content: 'It said hi.' },
      ],
    });
    const client = new OpenAI({ baseURL: api.url, apiKey: 'key-a', maxRetries: 0 });
    const done = await client.chat.completions.create({
      model: 'Files',
      messages: [{ role: 'user', content: 'echo hi' }],
    });
    expect(done.choices[0]!.message.content).toBe('It said hi.');
    expect(JSON.stringify(model.requests.at(-1))).toContain('echo: hi');
  });
});
