// Model connections as the app builds them (lib/server/context.ts) over a real SQLite file, against scripted model
// servers on loopback ports: the API key is encrypted at rest (never in the database file in clear, never in anything
// the page is answered with), a saved connection is used at once (no restart), Test connection says what failed,
// the loopback scan finds a server on a listed port, and one user's connection is nobody else's.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeViewer, type Viewer } from '../../lib/auth/viewer';
import { loadConfig } from '../../lib/config';
import { installSecretBox, SECRET_KEY_FILE } from '../../lib/models/secret-box';
import { ModelService, SCAN_REUSE_MS } from '../../lib/models/service';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { DB_FILE_NAME, openStore } from '../../lib/store';
import { LOCAL_OWNER_ID, ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';

const KEY = 'sk-connection-test-0123456789-secret';

function viewer(ownerId: string, admin: boolean): Viewer {
  const userTools = { codeInterpreter: true, web: true };
  return makeViewer({ owner: ownerScope(ownerId), admin, via: admin ? 'local' : 'session', userTools });
}
/** The one user of an app without accounts: the admin. */
const ADMIN = viewer(LOCAL_OWNER_ID, true);

let lab: ModelServer;
let htmlServer: Server;
let silentServer: Server;
const stores: ChatStore[] = [];

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
}

async function context(env: Record<string, string> = {}): Promise<AppContext & { dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'connections-'));
  const config = loadConfig({ DATA_DIR: dataDir, MODEL_SCAN_PORTS: 'off', ...env });
  const store = await openStore(dataDir);
  stores.push(store);
  return Object.assign(await createAppContext(config, store), { dataDir });
}

beforeAll(async () => {
  lab = await createModelServer({ model: 'alpha', moreModels: ['beta'], apiKey: KEY });
  htmlServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'));
  silentServer = createServer(() => {}); // accepts, never answers
  await Promise.all([listen(htmlServer), listen(silentServer)]);
});

afterAll(async () => {
  for (const s of stores) await s.close();
  await lab.close();
  htmlServer.closeAllConnections();
  silentServer.closeAllConnections();
  await new Promise((r) => htmlServer.close(r));
  await new Promise((r) => silentServer.close(r));
});

describe('model connections', () => {
  it('keeps the key encrypted at rest and out of every answer, and uses the connection at once', async () => {
    const ctx = await context();
    const added = await ctx.models.addConnection(ADMIN, { name: 'Lab', baseURL: lab.url, apiKey: KEY });
    expect(added).toMatchObject({ name: 'Lab', keySet: true, source: 'page' });

    // At rest: the database holds ciphertext, the key file is the server user's only.
    await ctx.store.close();
    const dbBytes = readFileSync(path.join(ctx.dataDir, DB_FILE_NAME));
    expect(dbBytes.includes(Buffer.from(KEY))).toBe(false);
    expect(dbBytes.includes(Buffer.from('v1:'))).toBe(true);
    expect(statSync(path.join(ctx.dataDir, SECRET_KEY_FILE)).mode & 0o077).toBe(0);

    // Reopened (a restart), the key still opens and nothing the page gets holds it.
    const store = await openStore(ctx.dataDir);
    stores.push(store);
    const again = await createAppContext(loadConfig({ DATA_DIR: ctx.dataDir, MODEL_SCAN_PORTS: 'off' }), store);
    const answers = [
      await again.models.connections(ADMIN),
      await again.models.listModels(ADMIN),
      await again.models.testConnection(ADMIN, { id: added.id }),
      await again.models.updateConnection(ADMIN, added.id, { name: 'Lab 2' }),
    ];
    for (const a of answers) expect(JSON.stringify(a)).not.toContain(KEY);
    expect(answers[2]).toMatchObject({ ok: true, models: [{ id: 'alpha' }, { id: 'beta' }] });

    // A conversation on its second model, run through the app's own agent factory: the server gets the key.
    lab.reset();
    const conversation = await again.store.createConversation(ADMIN.owner, { settings: { model: `${added.id}/beta` } });
    const started = await again.chat.send(ADMIN, { conversationId: conversation.id, message: 'ping beta' });
    const events = await drain(follow(again.chat, ADMIN.owner, started.runId));
    expect(events.find((e) => e.type === 'run-start')).toMatchObject({ model: 'beta', connection: 'Lab 2' });
    expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    const chat = lab.requests.find((r) => r.path === '/v1/chat/completions');
    expect(chat?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it('a message with only an unreachable connection says which connection and why, not that nothing is set up', async () => {
    const ctx = await context();
    const closed = await freePort();
    await ctx.models.addConnection(ADMIN, { name: 'Gone', baseURL: `http://127.0.0.1:${closed}/v1`, saveAnyway: true });
    expect(await ctx.models.anyConfigured(ADMIN.owner)).toBe(true);
    const refusal = await ctx.chat.send(ADMIN, { message: 'hello?' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    // Before: "No model is set up yet: connect a server…", though the page shows the connection and its error.
    expect((refusal as Error).message).toMatch(/^No connected server offers a model now: .*Gone.*Check the connection/);
    expect(await ctx.store.listConversations(ADMIN.owner)).toEqual([]);
  });

  it('a key sealed with another SECRET_KEY is reported as needing to be entered again, never sent', async () => {
    const ctx = await context({ SECRET_KEY: 'first-secret-key-long-enough-for-both' });
    const added = await ctx.models.addConnection(ADMIN, { name: 'Lab', baseURL: lab.url, apiKey: KEY });
    const other = await createAppContext(
      loadConfig({
        DATA_DIR: ctx.dataDir,
        SECRET_KEY: 'another-secret-key-long-enough-for-both',
        MODEL_SCAN_PORTS: 'off',
      }),
      ctx.store,
    );
    const [view] = await other.models.connections(ADMIN);
    expect(view?.keyProblem).toMatch(/cannot be decrypted/);
    await expect(other.models.resolve(ADMIN.owner, `${added.id}/alpha`)).rejects.toThrow(
      /Enter the key again|decrypted/,
    );
  });

  it('Test connection says what failed: 401, unreachable, not OpenAI-compatible, timeout, a bad URL', async () => {
    const ctx = await context();
    const test = (baseURL: string, apiKey?: string) => ctx.models.testConnection(ADMIN, { baseURL, apiKey });
    expect(await test(lab.url, 'sk-wrong')).toMatchObject({ ok: false, problem: 'unauthorized', status: 401 });
    expect(await test(lab.url)).toMatchObject({ ok: false, problem: 'unauthorized' });
    const closed = await freePort();
    expect(await test(`http://127.0.0.1:${closed}/v1`)).toMatchObject({ ok: false, problem: 'unreachable' });
    const html = (htmlServer.address() as { port: number }).port;
    expect(await test(`http://127.0.0.1:${html}/v1`)).toMatchObject({ ok: false, problem: 'not-openai' });
    expect(await test('ftp://example.com/v1')).toMatchObject({ ok: false, problem: 'bad-url' });
    // Typed without its scheme: what was meant is said back (before: "… (got localhost:)").
    expect(await test('localhost:8011/v1')).toMatchObject({
      ok: false,
      problem: 'bad-url',
      message: 'A base URL starts with http:// or https://: did you mean http://localhost:8011/v1?',
    });
    expect(await test('api.example.com/v1')).toMatchObject({
      message: 'A base URL starts with http:// or https://: did you mean https://api.example.com/v1?',
    });
    const silent = (silentServer.address() as { port: number }).port;
    const slow = await ctx.models.testConnection(ADMIN, { baseURL: `http://127.0.0.1:${silent}/v1` });
    expect(slow).toMatchObject({ ok: false, problem: 'timeout' });
  }, 20_000);

  it('the environment connection is listed as such and cannot be edited from the page', async () => {
    const ctx = await context({ OPENAI_BASE_URL: lab.url, OPENAI_API_KEY: KEY, OPENAI_MODEL: 'alpha' });
    const [env] = await ctx.models.connections(ADMIN);
    expect(env).toMatchObject({ id: 'env', source: 'environment', keySet: true, editable: false });
    expect(JSON.stringify(env)).not.toContain(KEY);
    await expect(ctx.models.removeConnection(ADMIN, 'env')).rejects.toThrow(/environment/);
    expect(await ctx.models.defaultModelId(ADMIN.owner)).toBe('env/alpha');
  });

  it('the loopback scan finds a server on a listed port, and one click connects it', async () => {
    const ctx = await context({ MODEL_SCAN_PORTS: `ollama:${lab.port},vllm:${await freePort()}` });
    // The lab server wants a key, so the scan does not offer it; a keyless one on another port is found.
    const open = await createModelServer({ model: 'found-model' });
    try {
      const scanning = await context({ MODEL_SCAN_PORTS: `llamacpp:${open.port},vllm:${lab.port}` });
      const found = await scanning.models.scan(ADMIN, true);
      expect(found).toEqual([expect.objectContaining({ kind: 'llamacpp', port: open.port, models: ['found-model'] })]);
      const used = await scanning.models.useFound(ADMIN, open.port);
      expect(used.modelId).toBe(`${used.connection.id}/found-model`);
      expect((await scanning.models.scan(ADMIN))[0]?.connectedAs).toBe(used.connection.id);
      expect(await ctx.models.scan(ADMIN, true)).toEqual([]);
    } finally {
      await open.close();
    }
  });

  it('a found server gone since the scan is not connected: Use says to scan again', async () => {
    const gone = await createModelServer({ model: 'gone-model' });
    const scanning = await context({ MODEL_SCAN_PORTS: `llamacpp:${gone.port}` });
    expect((await scanning.models.scan(ADMIN, true)).map((f) => f.port)).toEqual([gone.port]);
    await gone.close();
    await expect(scanning.models.useFound(ADMIN, gone.port)).rejects.toThrow(
      `llama.cpp (${gone.port}) no longer answers as it did when it was found: scan again.`,
    );
    expect((await scanning.models.connections(ADMIN)).filter((c) => c.source === 'page')).toEqual([]);
  });

  it('scans again once the last scan is a few seconds old: a server started after the app shows up', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'scan-'));
    const store = await openStore(dataDir);
    stores.push(store);
    let now = 1_000_000;
    const models = new ModelService({
      store,
      box: () => installSecretBox(dataDir),
      config: loadConfig({ DATA_DIR: dataDir, MODEL_SCAN_PORTS: `vllm:${port}`, MODEL_SCAN_TIMEOUT_MS: '2000' }),
      now: () => now,
    });
    expect(await models.scan(ADMIN)).toEqual([]); // as the server starts: nothing there yet
    const late = await createModelServer({ model: 'late-model', port });
    try {
      // Within a few seconds the last scan is reused (the page opening twice scans once)...
      now += SCAN_REUSE_MS - 1;
      expect(await models.scan(ADMIN)).toEqual([]);
      // ...after that, opening the empty page or the Models dialog finds the server without "Scan again".
      now += 1;
      expect(await models.scan(ADMIN)).toEqual([
        expect.objectContaining({ kind: 'vllm', port, models: ['late-model'] }),
      ]);
    } finally {
      await late.close();
    }
    // "Scan again" does not wait for the reuse to run out.
    expect(await models.scan(ADMIN, true)).toEqual([]);
  });

  it('a server that answers 400 to native tools gets them in the text once, says so, and is remembered', async () => {
    const strict = await createModelServer({
      model: 'no-tools',
      scenario: {
        rules: [
          { when: { hasTools: true }, reply: { fault: { kind: 'status', status: 400 } } },
          { when: {}, reply: { content: 'Answered without native tools.' } },
        ],
      },
    });
    try {
      const ctx = await context();
      const conn = await ctx.models.addConnection(ADMIN, { name: 'Strict', baseURL: strict.url });
      const conversation = await ctx.store.createConversation(ADMIN.owner, {
        settings: { model: `${conn.id}/no-tools`, tools: ['calculator'], fncallMode: 'native' },
      });
      const first = await ctx.chat.send(ADMIN, { conversationId: conversation.id, message: 'add 1 and 2' });
      const events = await drain(follow(ctx.chat, ADMIN.owner, first.runId));
      expect(events.find((e) => e.type === 'llm-retry')).toMatchObject({ error: { code: 'tools-refused' } });
      expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
      const chats = () => strict.requests.filter((r) => r.path === '/v1/chat/completions');
      expect(chats().map((r) => Boolean((r.body as { tools?: unknown }).tools))).toEqual([true, false]);
      expect(await ctx.store.learnedCapabilities(conn.id)).toEqual({ 'no-tools': { tools: false } });

      // Remembered: the next run sends the tools in the text at once.
      strict.reset();
      const second = await ctx.chat.send(ADMIN, { conversationId: conversation.id, message: 'again' });
      const again = await drain(follow(ctx.chat, ADMIN.owner, second.runId));
      expect(again.some((e) => e.type === 'llm-retry')).toBe(false);
      expect(chats().map((r) => Boolean((r.body as { tools?: unknown }).tools))).toEqual([false]);
      const models = await ctx.models.listModels(ADMIN, { refresh: true });
      const option = models.find((g) => g.connectionId === conn.id)?.models[0];
      expect(option?.capabilities.tools).toEqual({ value: false, source: 'learned' });
    } finally {
      await strict.close();
    }
  });
  it("one user's connection: nobody else sees, tests, uses or edits it (404); the admin's is everyone's, key never shown", async () => {
    // The scripted servers are on loopback: users' connections may reach it here (the address policy has its own test).
    const ctx = await context({ ALLOW_PRIVATE_MODEL_URLS: '1' });
    const alice = viewer('user-alice', false);
    const bob = viewer('user-bob', false);
    const admin = viewer('user-admin', true);
    const own = await ctx.models.addConnection(alice, { name: 'Alice lab', baseURL: lab.url, apiKey: KEY });
    expect(own).toMatchObject({ serverWide: false, editable: true });
    const shared = await ctx.models.addConnection(admin, { name: 'Team lab', baseURL: lab.url, apiKey: KEY });
    expect(shared).toMatchObject({ serverWide: true, editable: true });

    // Alice sees, tests and uses hers, and the admin's.
    expect((await ctx.models.connections(alice)).map((c) => c.id)).toEqual([own.id, shared.id]);
    expect(await ctx.models.testConnection(alice, { id: own.id })).toMatchObject({ ok: true });

    // Bob: not in his lists, and every use of its id reads as unknown (404), the key never reaching the server.
    const notFound = { status: 404, code: 'not-found' };
    const bobs = await ctx.models.connections(bob);
    expect(bobs.map((c) => c.id)).toEqual([shared.id]);
    expect(bobs[0]).toMatchObject({ serverWide: true, editable: false, keySet: true });
    expect(JSON.stringify(bobs)).not.toContain(KEY);
    const groups = await ctx.models.listModels(bob);
    expect(groups.map((g) => g.connectionId)).toEqual([shared.id]);
    lab.reset();
    await expect(ctx.models.testConnection(bob, { id: own.id })).rejects.toMatchObject(notFound);
    await expect(ctx.models.testConnection(bob, { id: own.id, baseURL: lab.url })).rejects.toMatchObject(notFound);
    await expect(ctx.models.updateConnection(bob, own.id, { baseURL: 'http://127.0.0.1:1/v1' })).rejects.toMatchObject(
      notFound,
    );
    await expect(ctx.models.removeConnection(bob, own.id)).rejects.toMatchObject(notFound);
    await expect(ctx.models.resolve(bob.owner, `${own.id}/alpha`)).rejects.toMatchObject(notFound);
    const conversation = await ctx.store.createConversation(bob.owner, { settings: { model: `${own.id}/alpha` } });
    await expect(ctx.chat.send(bob, { conversationId: conversation.id, message: 'use hers' })).rejects.toMatchObject(
      notFound,
    );
    // The store itself refuses him too, whatever the service above it checks.
    expect(await ctx.store.getConnection(bob.owner, own.id)).toBeUndefined();
    await expect(ctx.store.updateConnection(bob.owner, own.id, { name: 'x' })).rejects.toMatchObject(notFound);
    expect(await ctx.store.removeConnection(bob.owner, own.id)).toBe(false);
    expect(lab.requests).toEqual([]);

    // The server-wide one: Bob uses it but cannot change it; an admin does not see a user's own either.
    await expect(ctx.models.removeConnection(bob, shared.id)).rejects.toThrow(/Only an admin/);
    expect((await ctx.models.connections(admin)).map((c) => c.id)).toEqual([shared.id]);

    // Alice's is as she left it.
    expect((await ctx.models.connections(alice)).find((c) => c.id === own.id)).toMatchObject({
      name: 'Alice lab',
      baseURL: lab.url,
      keySet: true,
    });
  });
});
