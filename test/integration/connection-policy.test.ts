// Model connections under the two rules that keep users from turning the server against its own keys and network,
// as the app builds them (lib/server/context.ts) over a real SQLite file, with a canary HTTP server on loopback that
// counts every request and the key it carried:
// - a stored key is sent only to the URL it was saved with: Test and Edit with a stored connection's id and another
//   URL need a new key (400), for the environment's connection, the admin's and the user's own;
// - users' base URLs reach public addresses only (private, loopback, link-local refused: 403 on create, test and
//   edit, and for a connection saved earlier, at use: listing and chat), unless ALLOW_PRIVATE_MODEL_URLS=1; the
//   environment's and the admin's connections keep loopback; the scan of this machine is the admin's.
// And a server that is not OpenAI-compatible is said to be so, with its path joined right, and is not saved unless
// the user says "save anyway".
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeViewer, type Viewer } from '../../lib/auth/viewer';
import { loadConfig } from '../../lib/config';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';

const ENV_KEY = 'sk-environment-key-never-leaves';
const ADMIN_KEY = 'sk-admin-key-never-leaves';
const ALICE_KEY = 'sk-alice-own-key';
const CANARY_BODY = 'canary-body-from-the-internal-network';

let lab: ModelServer;
let canary: Server;
let canaryPort: number;
let notOpenAI: Server;
let notOpenAIPort: number;
const stores: ChatStore[] = [];
/** What reached the canary: each request's path and headers. */
const hits: { url: string; headers: IncomingHttpHeaders }[] = [];

function viewer(ownerId: string, admin: boolean): Viewer {
  const userTools = { codeInterpreter: true, web: true };
  return makeViewer({ owner: ownerScope(ownerId), admin, via: 'session', userTools });
}
const ADMIN = viewer('user-admin', true);
const ALICE = viewer('user-alice', false);

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function context(env: Record<string, string> = {}): Promise<AppContext> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'connection-policy-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    MODEL_SCAN_PORTS: 'off',
    OPENAI_BASE_URL: lab.url,
    OPENAI_API_KEY: ENV_KEY,
    OPENAI_MODEL: 'alpha',
    LLM_MAX_RETRIES: '0',
    ...env,
  });
  const store = await openStore(dataDir);
  stores.push(store);
  return createAppContext(config, store);
}

/** The error `promise` was refused with: its HTTP status, its code and its words. */
async function refused(promise: Promise<unknown>): Promise<{ status?: number; code?: string; message: string }> {
  const e = await promise.then(
    (value) => {
      throw new Error(`not refused: ${JSON.stringify(value)}`);
    },
    (err: unknown) => err as { status?: number; code?: string; message: string },
  );
  return { status: e.status, code: e.code, message: e.message };
}

const canaryUrl = (host = '127.0.0.1') => `http://${host}:${canaryPort}/v1`;

beforeAll(async () => {
  lab = await createModelServer({ model: 'alpha', moreModels: ['beta'] });
  // Answers like a model server, with a body that must never come back to a user.
  canary = createServer((req, res) => {
    hits.push({ url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: [{ id: 'canary-model', note: CANARY_BODY }] }));
  });
  canaryPort = await listen(canary);
  notOpenAI = createServer((_req, res) =>
    res.writeHead(404, { 'content-type': 'text/html' }).end(`<html>${CANARY_BODY}</html>`),
  );
  notOpenAIPort = await listen(notOpenAI);
});

afterAll(async () => {
  for (const s of stores) await s.close();
  await lab.close();
  for (const s of [canary, notOpenAI]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

beforeEach(() => {
  hits.splice(0);
});

describe('a stored key goes only to the URL it was saved with', () => {
  it("Test with a stored connection's id and another URL needs a new key: the environment's, an admin's, one's own", async () => {
    // The address policy is out of the way here (users may reach loopback): only the key rule is at work.
    const ctx = await context({ ALLOW_PRIVATE_MODEL_URLS: '1' });
    const shared = await ctx.models.addConnection(ADMIN, { name: 'Team', baseURL: lab.url, apiKey: ADMIN_KEY });
    const own = await ctx.models.addConnection(ALICE, { name: 'Mine', baseURL: lab.url, apiKey: ALICE_KEY });
    for (const id of ['env', shared.id, own.id]) {
      for (const baseURL of [canaryUrl(), canaryUrl('localhost'), `${lab.url}/../evil`]) {
        const refusal = await refused(ctx.models.testConnection(ALICE, { id, baseURL }));
        expect(refusal).toMatchObject({ status: 400, code: 'connection-key-needed' });
        expect(refusal.message).toMatch(/sent only to the base URL it was saved with/);
      }
      // The admin is held to the same rule (Alice's own is not theirs to see: 404).
      expect(await refused(ctx.models.testConnection(ADMIN, { id, baseURL: canaryUrl() }))).toMatchObject({
        status: id === own.id ? 404 : 400,
      });
    }
    expect(hits).toEqual([]);

    // A key of their own, or none, goes where they say; the stored one never does.
    expect(
      await ctx.models.testConnection(ALICE, { id: 'env', baseURL: canaryUrl(), apiKey: 'sk-typed' }),
    ).toMatchObject({ ok: true });
    expect(await ctx.models.testConnection(ALICE, { id: shared.id, baseURL: canaryUrl(), apiKey: null })).toMatchObject(
      { ok: true },
    );
    expect(hits.map((h) => h.headers.authorization)).toEqual(['Bearer sk-typed', undefined]);
    // The same URL however it is typed (a trailing slash) keeps the stored key: Test of a saved connection works.
    expect(await ctx.models.testConnection(ALICE, { id: 'env', baseURL: `${lab.url}/` })).toMatchObject({ ok: true });
  });

  it('Edit that moves a connection with a key to another URL needs a new key, and leaves the connection as it was', async () => {
    const ctx = await context({ ALLOW_PRIVATE_MODEL_URLS: '1' });
    const own = await ctx.models.addConnection(ALICE, { name: 'Mine', baseURL: lab.url, apiKey: ALICE_KEY });
    const shared = await ctx.models.addConnection(ADMIN, { name: 'Team', baseURL: lab.url, apiKey: ADMIN_KEY });
    for (const [who, id] of [
      [ALICE, own.id],
      [ADMIN, shared.id],
    ] as const) {
      const refusal = await refused(ctx.models.updateConnection(who, id, { baseURL: canaryUrl() }));
      expect(refusal).toMatchObject({ status: 400, code: 'connection-key-needed' });
    }
    expect(hits).toEqual([]);
    expect((await ctx.models.connections(ALICE)).map((c) => [c.name, c.baseURL])).toEqual([
      ['Environment', lab.url],
      ['Mine', lab.url],
      ['Team', lab.url],
    ]);
    // Chat on it still goes to the saved URL with its key; nothing reached the canary.
    const conversation = await ctx.store.createConversation(ALICE.owner, { settings: { model: `${own.id}/alpha` } });
    lab.reset();
    const run = await ctx.chat.send(ALICE, { conversationId: conversation.id, message: 'hi' });
    expect((await drain(follow(ctx.chat, ALICE.owner, run.runId))).at(-1)).toMatchObject({ reason: 'answered' });
    expect(lab.requests.find((r) => r.path === '/v1/chat/completions')?.headers.authorization).toBe(
      `Bearer ${ALICE_KEY}`,
    );
    // With a new key (or removing the key) the move is allowed, and the new key is what goes there.
    await ctx.models.updateConnection(ALICE, own.id, { baseURL: canaryUrl(), apiKey: 'sk-new' });
    expect(hits.map((h) => h.headers.authorization)).toEqual(['Bearer sk-new']);
    expect(JSON.stringify(hits)).not.toContain(ALICE_KEY);
  });
});

describe("users' base URLs reach public addresses only", () => {
  const SPELLINGS = [
    '127.0.0.1',
    'localhost',
    '127.1',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '[::1]',
    '[::ffff:127.0.0.1]',
  ];

  it('a user: create, test and edit to any spelling of loopback are refused (403), nothing sent, no row kept', async () => {
    const ctx = await context();
    // Alice's own connection to a public server (stored directly: no test may leave loopback).
    const own = await ctx.store.addConnection(ALICE.owner, {
      name: 'Mine',
      baseURL: 'https://models.example.com/v1',
      apiKeyCipher: null,
      capabilities: {},
      rates: {},
    });
    for (const host of SPELLINGS) {
      const baseURL = canaryUrl(host);
      // One at a time: a call started before the previous one is awaited could be refused with no handler yet.
      for (const attempt of [
        () => ctx.models.addConnection(ALICE, { name: 'Probe', baseURL }),
        () => ctx.models.testConnection(ALICE, { baseURL }),
        () => ctx.models.updateConnection(ALICE, own.id, { baseURL }),
      ]) {
        const refusal = await refused(attempt());
        expect(refusal).toMatchObject({ status: 403, code: 'address-refused' });
        expect(refusal.message).toMatch(/loopback.*ALLOW_PRIVATE_MODEL_URLS=1/);
        expect(refusal.message).not.toContain(CANARY_BODY);
      }
    }
    // Other private ranges: the cloud metadata address, a LAN, the unspecified address.
    for (const baseURL of ['http://169.254.169.254/v1', 'http://10.0.0.1/v1', 'http://0.0.0.0:9/v1'])
      expect(await refused(ctx.models.testConnection(ALICE, { baseURL }))).toMatchObject({ status: 403 });
    expect(hits).toEqual([]);
    expect((await ctx.models.connections(ALICE)).filter((c) => c.source === 'page').map((c) => c.baseURL)).toEqual([
      'https://models.example.com/v1',
    ]);
  }, 30_000);

  it('a connection saved earlier at a private address is refused at use: listing and chat send nothing', async () => {
    const ctx = await context();
    // Saved before the policy (straight into the store, as an older version did).
    const earlier = await ctx.store.addConnection(ALICE.owner, {
      name: 'Earlier',
      baseURL: canaryUrl('localhost'),
      apiKeyCipher: null,
      capabilities: {},
      rates: {},
    });
    const groups = await ctx.models.listModels(ALICE, { refresh: true });
    expect(groups.find((g) => g.connectionId === earlier.id)?.problem).toMatch(/^Refused to fetch localhost: loopback/);
    // The environment's connection (loopback too) is the server owner's: it lists for Alice as ever.
    expect(groups.find((g) => g.connectionId === 'env')?.models.map((m) => m.name)).toEqual(['alpha', 'beta']);

    const conversation = await ctx.store.createConversation(ALICE.owner, {
      settings: { model: `${earlier.id}/canary-model` },
    });
    const run = await ctx.chat.send(ALICE, { conversationId: conversation.id, message: 'hello' });
    const end = (await drain(follow(ctx.chat, ALICE.owner, run.runId))).at(-1);
    expect(end).toMatchObject({ type: 'run-end', reason: 'error', error: { code: 'address-refused' } });
    expect(JSON.stringify(end)).toMatch(/Refused to fetch localhost: loopback address/);
    expect(hits).toEqual([]);
  });

  it("the admin's and the environment's connections reach loopback (Ollama on the admin's machine), and so does everyone's with ALLOW_PRIVATE_MODEL_URLS=1", async () => {
    const ctx = await context();
    const shared = await ctx.models.addConnection(ADMIN, { name: 'Local', baseURL: canaryUrl('localhost') });
    expect(hits).toHaveLength(1); // the save asked for the model list once (and the picker reuses it)
    // Alice uses the admin's connection at its saved URL: the server owner chose that address.
    expect(await ctx.models.testConnection(ALICE, { id: shared.id })).toMatchObject({ ok: true });
    const groups = await ctx.models.listModels(ALICE);
    expect(groups.find((g) => g.connectionId === shared.id)?.models.map((m) => m.name)).toEqual(['canary-model']);

    const open = await context({ ALLOW_PRIVATE_MODEL_URLS: '1' });
    const mine = await open.models.addConnection(ALICE, { name: 'Mine', baseURL: canaryUrl() });
    expect(mine).toMatchObject({ serverWide: false });
    expect(await open.models.testConnection(ALICE, { baseURL: canaryUrl('[::ffff:127.0.0.1]') })).toMatchObject({
      ok: true,
    });
  });

  it("the scan of this machine's ports is the admin's", async () => {
    const ctx = await context({ MODEL_SCAN_PORTS: `llamacpp:${canaryPort}` });
    expect(await ctx.models.scan(ALICE, true)).toEqual([]);
    expect(await refused(ctx.models.useFound(ALICE, canaryPort))).toMatchObject({
      status: 403,
      code: 'found-admin-only',
    });
    expect(hits).toEqual([]);
    expect((await ctx.models.scan(ADMIN, true)).map((f) => f.port)).toEqual([canaryPort]);
  });
});

describe('a server that is not OpenAI-compatible', () => {
  it('is said to be one in plain words, the path joined right, and its body never repeated', async () => {
    const ctx = await context();
    const root = `http://127.0.0.1:${notOpenAIPort}`;
    const result = await ctx.models.testConnection(ADMIN, { baseURL: `${root}/` });
    expect(result).toEqual({
      ok: false,
      problem: 'not-openai',
      status: 404,
      message:
        `127.0.0.1:${notOpenAIPort} answered, but it is not an OpenAI-compatible server: GET /models answered HTTP 404. ` +
        `OpenAI-compatible base URLs usually end in /v1: try ${root}/v1.`,
    });
    const v1 = await ctx.models.testConnection(ADMIN, { baseURL: `${root}/v1` });
    expect(v1).toMatchObject({ problem: 'not-openai', message: expect.stringContaining('GET /v1/models answered') });
    expect(JSON.stringify([result, v1])).not.toContain(CANARY_BODY);
  });

  it('is not saved unless the user says "save anyway"; then it is', async () => {
    const ctx = await context();
    const baseURL = `http://127.0.0.1:${notOpenAIPort}/v1`;
    expect(await refused(ctx.models.addConnection(ADMIN, { name: 'Wrong', baseURL }))).toMatchObject({
      status: 400,
      code: 'not-openai',
    });
    expect((await ctx.models.connections(ADMIN)).map((c) => c.name)).toEqual(['Environment']);
    const saved = await ctx.models.addConnection(ADMIN, { name: 'Wrong', baseURL, saveAnyway: true });
    expect(saved).toMatchObject({ name: 'Wrong', baseURL });
  });
});

describe('a server that does not answer, refuses the key or answers with an error', () => {
  let keyed: ModelServer;
  let failing: Server;
  let failingPort: number;
  let down: string;
  let downPort: number;

  beforeAll(async () => {
    keyed = await createModelServer({ model: 'gamma', apiKey: 'sk-right' });
    failing = createServer((_req, res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: CANARY_BODY })),
    );
    failingPort = await listen(failing);
    const probe = createServer();
    downPort = await listen(probe);
    await new Promise((r) => probe.close(r));
    down = `http://127.0.0.1:${downPort}/v1`;
  });

  afterAll(async () => {
    await keyed.close();
    failing.closeAllConnections();
    await new Promise((r) => failing.close(r));
  });

  it('is not saved: Save says why in plain words, and nothing is kept', async () => {
    const ctx = await context();
    expect(await refused(ctx.models.addConnection(ADMIN, { name: 'Later', baseURL: down }))).toEqual({
      status: 400,
      code: 'connection-unreachable',
      message:
        `Nothing answers at 127.0.0.1:${downPort} (connection refused). Is the server running, and is the address ` +
        'right? If the server is only down for now, save it anyway.',
    });
    const wrongKey = { name: 'Keyed', baseURL: keyed.url, apiKey: 'sk-wrong' };
    expect(await refused(ctx.models.addConnection(ADMIN, wrongKey))).toMatchObject({
      status: 400,
      code: 'connection-unauthorized',
      message: expect.stringMatching(/refused the API key \(HTTP 401\): check the key\. Or save it anyway\.$/),
    });
    const erring = await refused(
      ctx.models.addConnection(ADMIN, { name: 'Erring', baseURL: `http://127.0.0.1:${failingPort}/v1` }),
    );
    expect(erring).toMatchObject({ status: 400, code: 'connection-http' });
    expect(erring.message).toBe(
      `127.0.0.1:${failingPort} answered HTTP 500 to GET /v1/models. Check the base URL. If the server is only ` +
        'down for now, save it anyway.',
    );
    expect((await ctx.models.connections(ADMIN)).map((c) => c.name)).toEqual(['Environment']);

    // An edit to such a URL, or with a key the server refuses, is refused too: the connection stays as it was.
    const good = await ctx.models.addConnection(ADMIN, { name: 'Good', baseURL: keyed.url, apiKey: 'sk-right' });
    expect(await refused(ctx.models.updateConnection(ADMIN, good.id, { baseURL: down, apiKey: null }))).toMatchObject({
      code: 'connection-unreachable',
    });
    expect(await refused(ctx.models.updateConnection(ADMIN, good.id, { apiKey: 'sk-wrong' }))).toMatchObject({
      code: 'connection-unauthorized',
    });
    const kept = (await ctx.models.connections(ADMIN)).find((c) => c.id === good.id);
    expect(kept).toMatchObject({ baseURL: keyed.url, keySet: true });
    expect(await ctx.models.testConnection(ADMIN, { id: good.id })).toMatchObject({ ok: true });
  });

  it('is saved when the user says "save anyway" (it may be down for now), never past the address policy', async () => {
    const ctx = await context();
    expect(await ctx.models.addConnection(ADMIN, { name: 'Later', baseURL: down, saveAnyway: true })).toMatchObject({
      name: 'Later',
      baseURL: down,
    });
    const wrongKey = { name: 'Keyed', baseURL: keyed.url, apiKey: 'sk-wrong', saveAnyway: true };
    expect(await ctx.models.addConnection(ADMIN, wrongKey)).toMatchObject({ name: 'Keyed', keySet: true });
    // A user's "save anyway" does not open the server's own network to them: refused before anything is sent.
    expect(
      await refused(ctx.models.addConnection(ALICE, { name: 'Mine', baseURL: canaryUrl(), saveAnyway: true })),
    ).toMatchObject({ status: 403, code: 'address-refused' });
    expect(hits).toEqual([]);
    expect((await ctx.models.connections(ALICE)).map((c) => c.name)).toEqual(['Environment', 'Later', 'Keyed']);
  });
});
