// Users are not trusted with the server's network or its keys, and nothing of what a server answered is told back:
// the built app with accounts on (AUTH=required), an admin and an ordinary user over real sessions, and a canary
// HTTP server on loopback that records every request it gets (path, headers, body). Each attack of issue #28 (items
// 1, 2, 7) is replayed as the user, with proof that nothing reached the canary, no key left, no row was kept:
// - key theft: Test connection (and Edit) with the id of the environment's or the admin's connection and a URL of
//   the user's own;
// - SSRF: a user's base URL on the server's loopback, in every spelling, on create, test, list and chat (a
//   connection saved before the rule included), and the scan of this machine's ports;
// - a server's answer repeated in a failure (Test, a model error);
// - a tool that throws: the model and the page get a short message and an error id, the server's log the stack.
// The admin keeps loopback: a model server on the admin's machine is found and used in two clicks.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerModelsResult } from '../../lib/llm/server-models';
import type { ConnectionView, FoundServerView, ModelGroup } from '../../lib/models/service';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { actionValue, ROOT, request, startApp, type App } from './support/app';
import { actionCall, as, chat, resultAs, signUp, type Session } from './support/accounts';

const ENV_KEY = 'sk-security-suite'; // what startApp gives the environment's connection
const ADMIN_KEY = 'sk-admin-team-key-0123456789';
const CANARY_BODY = 'canary-internal-body-7f3a';

let app: App;
let localServer: ModelServer;
let admin: Session;
let user: Session;
let canary: http.Server;
let canaryPort: number;
const hits: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

const canaryUrl = (host = '127.0.0.1') => `http://${host}:${canaryPort}/v1`;

/** Every key the server holds: none may ever reach the canary. */
function keysThatReachedTheCanary(): string[] {
  const seen = JSON.stringify(hits);
  return [ENV_KEY, ADMIN_KEY].filter((k) => seen.includes(k));
}

/** Rows of model_connections in the app's SQLite store. */
function connectionRows(): { owner_id: string | null; base_url: string }[] {
  const db = new Database(path.join(app.dataDir, 'agent-studio.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT owner_id, base_url FROM model_connections').all() as {
      owner_id: string | null;
      base_url: string;
    }[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  canary = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      hits.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString(),
      });
      if (req.url === '/v1/models')
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data: [{ id: 'canary-model', secret: CANARY_BODY }] }));
      res.writeHead(502, { 'content-type': 'text/html' }).end(`<html><body>${CANARY_BODY}</body></html>`);
    });
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryPort = (canary.address() as AddressInfo).port;
  // A model server "on the admin's machine", on a port the scan asks.
  localServer = await createModelServer({ model: 'local-llama' });
  app = await startApp({
    env: {
      AUTH: 'required',
      MAX_RUNS_PER_MINUTE: '1000',
      MAX_CONCURRENT_RUNS: '10',
      MODEL_SCAN_PORTS: `ollama:${localServer.port}`,
    },
  });
  app.model.setScenario({
    rules: [
      { when: { anyIncludes: 'An error occurred when calling tool' }, reply: { content: 'The clock is broken.' } },
      {
        when: { lastUserIncludes: 'time on Mars' },
        reply: { toolCalls: [{ id: 'call-1', name: 'current_time', arguments: '{"timezone": "Mars/Olympus_Mons"}' }] },
      },
    ],
    fallback: 'echo',
  });
  admin = await signUp(app, 'admin@example.com');
  await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
  user = await signUp(app, 'user@example.com');
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await localServer?.close();
  canary?.closeAllConnections();
  await new Promise((r) => canary?.close(r));
});

beforeEach(() => {
  hits.splice(0);
});

describe('key theft through Test connection and Edit (issue #28, 1)', () => {
  let team: ConnectionView;

  beforeAll(async () => {
    const added = await resultAs<ConnectionView>(app, admin, 'addConnection', [
      { name: 'Team', baseURL: app.model.url, apiKey: ADMIN_KEY },
    ]);
    if (!added.ok) throw new Error(added.error);
    team = added.value;
  });

  it("a stored key (the environment's, the admin's) is never sent to a URL of the user's: 400, nothing sent", async () => {
    for (const id of ['env', team.id])
      for (const baseURL of [canaryUrl(), canaryUrl('localhost'), `${canaryUrl()}/`]) {
        const r = await resultAs<ServerModelsResult>(app, user, 'testConnection', [{ id, baseURL }]);
        expect(r).toMatchObject({ ok: false, status: 400 });
        expect(!r.ok && r.error).toMatch(/sent only to the base URL it was saved with/);
      }
    // The admin too: a key goes only where it was saved to go, whoever asks.
    const byAdmin = await resultAs<ServerModelsResult>(app, admin, 'testConnection', [
      { id: team.id, baseURL: canaryUrl() },
    ]);
    expect(byAdmin).toMatchObject({ ok: false, status: 400 });
    const moved = await resultAs<ConnectionView>(app, admin, 'updateConnection', [team.id, { baseURL: canaryUrl() }]);
    expect(moved).toMatchObject({ ok: false, status: 400 });
    // The user cannot edit the admin's connection at all.
    const edited = await resultAs<ConnectionView>(app, user, 'updateConnection', [team.id, { baseURL: canaryUrl() }]);
    expect(edited).toMatchObject({ ok: false, status: 403 });

    expect(hits).toEqual([]);
    expect(keysThatReachedTheCanary()).toEqual([]);
    expect(connectionRows().map((r) => r.base_url)).toEqual([app.model.url]);
    // Test of the connection as saved still works, for the user too (the key goes where it was saved to go).
    expect(await resultAs<ServerModelsResult>(app, user, 'testConnection', [{ id: team.id }])).toMatchObject({
      ok: true,
      value: { ok: true },
    });
    expect(app.model.requests.at(-1)?.headers.authorization).toBe(`Bearer ${ADMIN_KEY}`);
  });
});

describe("SSRF through users' base URLs (issue #28, 2)", () => {
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

  it('create and test with any spelling of loopback are refused (403): nothing sent, no row kept', async () => {
    const rowsBefore = connectionRows().length;
    for (const host of SPELLINGS) {
      const baseURL = canaryUrl(host);
      const added = await resultAs<ConnectionView>(app, user, 'addConnection', [{ name: 'Probe', baseURL }]);
      expect(added).toMatchObject({ ok: false, status: 403 });
      expect(!added.ok && added.error).toMatch(/^Refused to fetch .*loopback/);
      const tested = await resultAs<ServerModelsResult>(app, user, 'testConnection', [{ baseURL }]);
      expect(tested).toMatchObject({ ok: false, status: 403 });
      expect(JSON.stringify([added, tested])).not.toContain(CANARY_BODY);
    }
    // The cloud's metadata address and the LAN are the same class.
    for (const baseURL of ['http://169.254.169.254/latest', 'http://10.0.0.1/v1', 'http://0.0.0.0:9/v1'])
      expect(await resultAs(app, user, 'testConnection', [{ baseURL }])).toMatchObject({ ok: false, status: 403 });
    expect(hits).toEqual([]);
    expect(connectionRows()).toHaveLength(rowsBefore);
  });

  it('a connection saved before the rule is refused at use: the model list and a chat send nothing', async () => {
    // Saved by an older version (straight into the store): the user's own, to the server's loopback.
    const db = new Database(path.join(app.dataDir, 'agent-studio.db'), { fileMustExist: true });
    const userId = (db.prepare('SELECT id FROM user WHERE email = ?').get(user.email) as { id: string }).id;
    const now = Date.now();
    db.prepare(
      'INSERT INTO model_connections (id, owner_id, name, base_url, api_key_cipher, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?)',
    ).run('earlier-connection', userId, 'Earlier', canaryUrl('localhost'), now, now);
    db.close();

    const groups = await resultAs<ModelGroup[]>(app, user, 'listModels', [true]);
    if (!groups.ok) throw new Error(groups.error);
    const earlier = groups.value.find((g) => g.connectionId === 'earlier-connection');
    expect(earlier?.problem).toMatch(/^Refused to fetch localhost: loopback address/);
    expect(earlier?.models).toEqual([]);

    const run = await chat(app, user, { message: 'hello', model: 'earlier-connection/canary-model' });
    expect(run.status).toBe(200);
    const end = run.events.at(-1);
    expect(end).toMatchObject({ type: 'run-end', reason: 'error', error: { code: 'address-refused' } });
    expect(hits).toEqual([]);
  });

  it('recording the raw stream (a setting of the conversation) does not take the model call past the check', async () => {
    // Finding: with Record raw stream on, the model call went out through a fetch of the recorder's own (the global
    // one), not the connection's guarded fetch: a connection saved before the rule, a name rebound to loopback or a
    // public server redirecting there reached the server's loopback, and its answer came back in the raw stream.
    const db = new Database(path.join(app.dataDir, 'agent-studio.db'), { fileMustExist: true });
    const userId = (db.prepare('SELECT id FROM user WHERE email = ?').get(user.email) as { id: string }).id;
    const now = Date.now();
    db.prepare(
      'INSERT INTO model_connections (id, owner_id, name, base_url, api_key_cipher, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?)',
    ).run('recorded-connection', userId, 'Recorded', canaryUrl('127.0.0.1'), now, now);
    db.close();
    const conversationId = await actionCall(app, user, 'startConversation', [{ recordRawStream: true }]).then((a) =>
      actionValue<string>(a),
    );
    const run = await chat(app, user, {
      conversationId,
      message: 'hello',
      model: 'recorded-connection/canary-model',
    });
    expect(run.status).toBe(200);
    expect(run.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'error', error: { code: 'address-refused' } });
    expect(hits).toEqual([]);
    expect(JSON.stringify(run.events)).not.toContain(CANARY_BODY);
  });

  it("the scan of this machine's ports is the admin's: a user finds nothing and cannot use what was found", async () => {
    expect(await resultAs<FoundServerView[]>(app, user, 'scanServers', [true])).toEqual({ ok: true, value: [] });
    // Using a found server is the admin's action: refused to a user as a whole (the access matrix's admin rule).
    expect((await actionCall(app, user, 'useFoundServer', [localServer.port])).status).toBe(403);
    expect(connectionRows().some((r) => r.base_url.includes(String(localServer.port)))).toBe(false);
  });

  it("the admin keeps loopback: the server on the admin's machine is found and used in two clicks", async () => {
    const found = await resultAs<FoundServerView[]>(app, admin, 'scanServers', [true]);
    expect(found).toMatchObject({ ok: true, value: [{ port: localServer.port, models: ['local-llama'] }] });
    const used = await resultAs<{ connection: ConnectionView; modelId?: string }>(app, admin, 'useFoundServer', [
      localServer.port,
    ]);
    if (!used.ok) throw new Error(used.error);
    expect(used.value.modelId).toBe(`${used.value.connection.id}/local-llama`);
    // And everyone chats with it: the admin chose that address.
    const run = await chat(app, user, { message: 'hi local', model: used.value.modelId });
    expect(run.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    expect(localServer.requests.some((r) => r.path === '/v1/chat/completions')).toBe(true);
  });
});

describe('no failure repeats what a server answered (issue #28, 2)', () => {
  it('Test and a model error say what went wrong in our words only', async () => {
    // The admin may reach the canary (loopback is the admin's); its answers must still not come back.
    const tested = await resultAs<ServerModelsResult>(app, admin, 'testConnection', [
      { baseURL: `http://127.0.0.1:${canaryPort}/elsewhere` },
    ]);
    expect(tested).toMatchObject({ ok: true, value: { ok: false, problem: 'http', status: 502 } });
    const added = await resultAs<ConnectionView>(app, admin, 'addConnection', [
      { name: 'Canary', baseURL: canaryUrl() },
    ]);
    if (!added.ok) throw new Error(added.error);
    const run = await chat(app, user, { message: 'hi', model: `${added.value.id}/canary-model` });
    const end = run.events.at(-1) as { type: string; reason?: string; error?: { message: string } };
    expect(end).toMatchObject({ type: 'run-end', reason: 'error' });
    expect(end.error?.message).toMatch(/^Model server error 502/);
    expect(hits.some((h) => h.url === '/v1/chat/completions')).toBe(true);
    expect(JSON.stringify([tested, run.events])).not.toContain(CANARY_BODY);
  });
});

describe("why the admin's connections fail is the admin's business", () => {
  it('a user is told that a server-wide connection failed, in its list and its Test, but not where it is', async () => {
    // The admin's: one that answers 502 under a path, one where nothing listens (port 2: not one fetch refuses, which Test names differently).
    const lab: string[] = [];
    for (const [name, baseURL] of [
      ['Lab', `http://127.0.0.1:${canaryPort}/lab-only-path`],
      ['Closet', 'http://127.0.0.1:2/closet-path/v1'],
    ]) {
      const added = await resultAs<ConnectionView>(app, admin, 'addConnection', [{ name, baseURL, saveAnyway: true }]);
      if (!added.ok) throw new Error(added.error);
      lab.push(added.value.id);
    }
    const groupsOf = async (who: Session) => {
      const r = await resultAs<ModelGroup[]>(app, who, 'listModels', [true]);
      if (!r.ok) throw new Error(r.error);
      return r.value.filter((g) => lab.includes(g.connectionId));
    };
    const testsOf = async (who: Session) =>
      Promise.all(lab.map((id) => resultAs<ServerModelsResult>(app, who, 'testConnection', [{ id }])));

    const asUser = [await groupsOf(user), await testsOf(user)] as const;
    expect(asUser[0].map((g) => [g.name, Boolean(g.problem)])).toEqual([
      ['Lab', true],
      ['Closet', true],
    ]);
    expect(asUser[1]).toMatchObject([
      { ok: true, value: { ok: false, problem: 'http' } },
      { ok: true, value: { ok: false, problem: 'unreachable' } },
    ]);
    const told = JSON.stringify(asUser);
    for (const secret of ['127.0.0.1', String(canaryPort), ':9', 'lab-only-path', 'closet-path'])
      expect(told).not.toContain(secret);

    // The admin sees where and why.
    const asAdmin = JSON.stringify([await groupsOf(admin), await testsOf(admin)]);
    expect(asAdmin).toContain(`127.0.0.1:${canaryPort}`);
    expect(asAdmin).toContain('/lab-only-path/models');
    expect(asAdmin).toContain('127.0.0.1:2');
  });
});

describe('a tool that throws (issue #28, 7)', () => {
  it('gives the model and the page a short message and an error id; the stack is in the server log only', async () => {
    const run = await chat(app, user, { message: 'What is the time on Mars?', tools: ['current_time'] });
    expect(run.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    const result = run.events.find((e) => e.type === 'tool-result') as { content: string; ok: boolean } | undefined;
    expect(result?.ok).toBe(false);
    const id = /error id ([0-9a-f]{8})/.exec(result?.content ?? '')?.[1];
    expect(result?.content).toMatch(/^An error occurred when calling tool `current_time`:\nError: Unknown time zone/);
    expect(id).toBeDefined();
    // What the model was sent next holds the same text, and neither it nor the page holds a path or a frame.
    const sent = JSON.stringify(app.model.requests.at(-1)?.body);
    for (const text of [JSON.stringify(run.events), sent])
      for (const leak of [ROOT, '.next/server', 'node_modules', '    at ', 'Traceback'])
        expect(text).not.toContain(leak);
    expect(sent).toContain(`error id ${id}`);
    // The server's owner finds it all under the id.
    const logged = app
      .output()
      .split('\n')
      .findIndex((l) => l.includes(`[error ${id}] tool current_time failed`));
    expect(logged).toBeGreaterThanOrEqual(0);
    expect(app.output().split('\n')[logged + 1]).toMatch(/^\s+at /);
  });
});

describe('the page (issue #28, 3)', () => {
  it("loads images only from itself, data: and blob: (CSP), so an answer's image elsewhere cannot load", async () => {
    const page = await request(app.url, '/', { headers: as(app, user) });
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("img-src 'self' data: blob:;");
    expect(csp).not.toMatch(/img-src[^;]*(http:|https:|\*)/);
  });
});

describe("a user's settings and the server's retries", () => {
  it('max_retries in a conversation’s generate_cfg asks for fewer retries than LLM_MAX_RETRIES, never more', async () => {
    // The environment's server is overloaded (startApp sets LLM_MAX_RETRIES=0): every retry would be one more request
    // with the server's key, and one more event in the run's log.
    app.model.setScenario({
      rules: [{ when: { lastUserIncludes: 'overloaded' }, reply: { fault: { kind: 'status', status: 503 } } }],
      fallback: 'echo',
    });
    const conversationId = await actionCall(app, user, 'startConversation', [
      { generateCfg: { max_retries: 40, retry_base_delay_ms: 0 } },
    ]).then((a) => actionValue<string>(a));
    const before = app.model.requests.length;
    const run = await chat(app, user, { conversationId, message: 'are you overloaded?' });
    expect(run.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'error' });
    expect(app.model.requests.length - before).toBe(1);
  });

  it('n answers per call (each paid for on the key) are refused in a conversation’s generate_cfg: nothing sent', async () => {
    app.model.setScenario({ fallback: 'echo' });
    const conversationId = await actionCall(app, user, 'startConversation', [{ generateCfg: { n: 8 } }]).then((a) =>
      actionValue<string>(a),
    );
    const before = app.model.requests.length;
    const run = await chat(app, user, { conversationId, message: 'eight answers, please' });
    expect(run.status).toBe(400);
    expect(run.error).toMatch(/generate_cfg\.n must be 1/);
    expect(app.model.requests.length - before).toBe(0);
  });
});
