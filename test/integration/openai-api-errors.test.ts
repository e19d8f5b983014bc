// What an OpenAI client is told when /v1/chat/completions cannot start a run, driven by the official `openai` client
// (its own retry logic: it retries a 5xx, never a 400): a refusal of what the caller asked for is a 4xx that says what
// to do; a fault of ours is a 500 `server_error` with an error id and nothing of the server's files, its details in the
// server's log under that id. The fault is a plugin's, as the app loads PLUGINS_DIR: its tool reads its key from a
// file each time the tool is made, and the file is gone when a run builds the agent (ENOENT, with the file's absolute
// path). The refusal is a Router saved through the Agents page's checks with two members of one name. The real
// handlers behind test/support/api-server.ts, a real SQLite store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { saveAgentDefinition } from '../../lib/chat/saved-agents';
import { loadConfig } from '../../lib/config';
import { PluginCatalog } from '../../lib/plugins';
import { createAppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { errorResponse } from '../../lib/http/respond';
import { startApiServer, type ApiServer } from '../support/api-server';
import { holdWriteLock } from '../support/sqlite-faults';
import { FAULT_MESSAGE, writeKeyFilePlugin } from '../support/key-file-plugin';

const A = ownerScope('user-a');
let dir: string;
let keyFile: string;
let store: ChatStore;
let api: ApiServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'v1-errors-'));
  keyFile = writeKeyFilePlugin(dir, dir);
  process.env.BILLING_KEY_FILE = keyFile;
  const catalog = new PluginCatalog(dir, []);
  await catalog.load();
  expect(catalog.failures()).toEqual([]);
  store = await openSqliteStore(path.join(dir, 'chat.db'));
  const config = loadConfig({ DATA_DIR: dir, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' });
  api = await startApiServer(await createAppContext(config, store, { plugins: catalog }), {
    'key-a': everyToolActor(A),
  });
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await api?.close();
  await store?.close();
  delete process.env.BILLING_KEY_FILE;
  rmSync(dir, { recursive: true, force: true });
});

/** An OpenAI client that counts the HTTP requests it makes (its first attempt and each retry). */
function countingClient(maxRetries: number, baseURL = api.url): { client: OpenAI; attempts: () => number } {
  let attempts = 0;
  const client = new OpenAI({
    baseURL,
    apiKey: 'key-a',
    maxRetries,
    fetch: (url, init) => {
      attempts++;
      return fetch(url, init);
    },
  });
  return { client, attempts: () => attempts };
}

/** What the server writes to its log (console.error) from now on. */
function serverLog(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  return lines;
}

describe('POST /v1/chat/completions, when the run cannot start', () => {
  it('a fault of ours is a 500 server_error with an error id the log has, without paths; the client retries it', async () => {
    rmSync(keyFile);
    const log = serverLog();
    const { client, attempts } = countingClient(1);
    const failed = await client.chat.completions
      .create({ model: 'Billing Desk', messages: [{ role: 'user', content: 'invoice 7?' }] })
      .catch((e: unknown) => e);
    writeFileSync(keyFile, 'k');

    expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
    const error = failed as InstanceType<typeof OpenAI.InternalServerError>;
    expect(error).toMatchObject({ status: 500, type: 'server_error', code: null, param: null });
    const said = (error.error as { message: string }).message;
    const id = FAULT_MESSAGE.exec(said)?.[1];
    expect(id, said).toBeDefined();
    expect(said).not.toContain(dir);
    // A 5xx is worth another try to OpenAI's clients: one retry (maxRetries 1), each attempt with its own id.
    expect(attempts()).toBe(2);
    // The log holds what happened under the id the client was given: the error, with the file's whole path.
    const line = log.find((l) => l.startsWith(`[error ${id}] `));
    expect(line).toContain('ENOENT');
    expect(line).toContain(keyFile);
    expect(log.filter((l) => l.startsWith('[error '))).toHaveLength(2);
    // Nothing was stored for the run that did not start.
    expect(await store.listConversations(A)).toEqual([]);
  });

  it('a refusal that was a plain Error is a 400 saying what to do, with its code; the client does not retry it', async () => {
    // Two saved agents may share a name, and the Agents page lets a Router hold both.
    const helper = { name: 'Helper', kind: 'fncall' as const };
    const one = await saveAgentDefinition(store, A, undefined, helper);
    const two = await saveAgentDefinition(store, A, undefined, helper);
    await saveAgentDefinition(store, A, undefined, { name: 'Desk', kind: 'router', members: [one.id, two.id] });
    const log = serverLog();
    const { client, attempts } = countingClient(1);
    const failed = await client.chat.completions
      .create({ model: 'Desk', messages: [{ role: 'user', content: 'hello' }] })
      .catch((e: unknown) => e);

    expect(failed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(failed).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'agent_names_twice',
      param: null,
      error: { message: 'Two agents of this Router are named "Helper"; names must differ: rename one of them.' },
    });
    expect(attempts()).toBe(1);
    // A refusal is the caller's to fix: nothing of it goes to the server's log as an error.
    expect(log.filter((l) => l.startsWith('[error '))).toEqual([]);
  });

  it('an agent naming a tool this server does not have is a 400 agent_tool_unknown naming it and the fix', async () => {
    // Saved as an import saves it: from a server with a tool (an MCP server's, a plugin's) this one lacks.
    await saveAgentDefinition(store, A, undefined, {
      name: 'Tooly',
      kind: 'fncall',
      tools: ['calculator', 'no_such_tool'],
    });
    const before = (await store.listConversations(A)).length;
    const { client, attempts } = countingClient(1);
    const failed = await client.chat.completions
      .create({ model: 'Tooly', messages: [{ role: 'user', content: 'hello tooly' }] })
      .catch((e: unknown) => e);

    expect(failed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(failed).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'agent_tool_unknown',
      error: {
        message:
          'This server has no tool named no_such_tool, which the agent “Tooly” uses (no builtin tool, plugin or MCP server gives one). Edit the agent on the Agents page and untick what is missing, or ask the server’s admin to provide it.',
      },
    });
    expect(attempts()).toBe(1);
    expect(await store.listConversations(A)).toHaveLength(before);
  });

  it('an agent naming a tool this server has but cannot run now is a 400 tool_unavailable saying what to do', async () => {
    // web_search without a search provider: the server has the tool, not its provider.
    await saveAgentDefinition(store, A, undefined, { name: 'Searcher', kind: 'fncall', tools: ['web_search'] });
    const before = (await store.listConversations(A)).length;
    const { client, attempts } = countingClient(1);
    const failed = await client.chat.completions
      .create({ model: 'Searcher', messages: [{ role: 'user', content: 'search it' }] })
      .catch((e: unknown) => e);

    expect(failed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(failed).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'tool_unavailable',
      error: {
        message: expect.stringMatching(
          /^Tool web_search is not available: no search provider\. Set WEB_SEARCH_PROVIDER/,
        ),
      },
    });
    expect(attempts()).toBe(1);
    expect(await store.listConversations(A)).toHaveLength(before);
  });
});

describe('the database locked by another program (a real sqlite3 shell in a transaction)', () => {
  // An app of its own, whose store waits 300 ms for the lock (the app's waits 30 s) before StoreBusyError.
  let busyDir: string;
  let busyApi: ApiServer;
  let busyStore: ChatStore;
  let lock: Awaited<ReturnType<typeof holdWriteLock>> | undefined;
  let ctx: Awaited<ReturnType<typeof createAppContext>>;
  beforeAll(async () => {
    busyDir = mkdtempSync(path.join(tmpdir(), 'v1-busy-'));
    busyStore = await openSqliteStore(path.join(busyDir, 'chat.db'), { busyWaitMs: 300 });
    const config = loadConfig({ DATA_DIR: busyDir, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' });
    ctx = await createAppContext(config, busyStore);
    busyApi = await startApiServer(ctx, { 'key-a': everyToolActor(A) });
    lock = await holdWriteLock(path.join(busyDir, 'chat.db'));
  });
  afterAll(async () => {
    await lock?.release();
    await busyApi?.close();
    await busyStore?.close();
    rmSync(busyDir, { recursive: true, force: true });
  });

  it('/v1 answers 503 server_error store_busy with Retry-After, which OpenAI clients retry; nothing is logged as a fault', async () => {
    const log = serverLog();
    const { client, attempts } = countingClient(1, busyApi.url);
    const failed = await client.chat.completions
      .create({ model: 'Assistant', messages: [{ role: 'user', content: 'hello' }] })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.InternalServerError); // the class of every 5xx, which the client retries
    const error = failed as InstanceType<typeof OpenAI.InternalServerError>;
    expect(error).toMatchObject({ status: 503, type: 'server_error', code: 'store_busy', param: null });
    expect((error.error as { message: string }).message).toMatch(
      /^The database is locked by another program \(SQLITE_BUSY\) and was not freed within \d+ s\. Nothing was started; try again in a moment\.$/,
    );
    expect(error.headers?.get('retry-after')).toBe('5');
    expect(attempts()).toBe(2); // tried again (after the 5 s it was told), and told the same
    expect(log.filter((l) => l.startsWith('[error '))).toEqual([]);
  });

  it('POST /api/chat (a run started by the chat service, its error answered by the route guard) answers 503 store-busy with Retry-After', async () => {
    const e = await ctx.chat.send(everyToolActor(A), { message: 'hello' }).catch((err: unknown) => err);
    const answer = errorResponse(e, 'POST /api/chat');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(await answer.json()).toEqual({
      error: { code: 'store-busy', message: expect.stringMatching(/^The database is locked by another program/) },
    });
  });
});
