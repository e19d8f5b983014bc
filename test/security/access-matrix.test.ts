// The access matrix against the built app (accounts on, its services built by a page first, as when a browser comes
// first): every route handler, server action and /v1 endpoint, called as each principal (anonymous, a user, another
// user naming the first user's objects, the admin, the first user's API keys of each scope), gets exactly the outcome
// the declared rules give (lib/server/access-rules.ts, the table in docs/security.md): let in, 401, 403, or, for
// another user's object, the answer for a missing one. Each entry point has its probe here; one without a probe fails
// the first test, so a new route or action cannot go unchecked.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyView } from '../../lib/auth/api-keys';
import { expectedOutcome, PRINCIPALS, type Outcome, type Principal } from '../../lib/server/access';
import { entryPoints } from '../../lib/server/access-matrix';
import type { ConnectionView } from '../../lib/models/service';
import type { SavedAgent, StoredDocument } from '../../lib/store/types';
import { makeImage } from '../support/images';
import { actionId, actionPage, request, startApp, type Answer, type App } from './support/app';
import { actionAs, as, chat, PASSWORD, resultAs, signUp, type Session } from './support/accounts';

const MISSING = '00000000-0000-4000-8000-000000000000';

let app: App;
let admin: Session;
let a: Session;
let b: Session;
let keys: { read: string; run: string };

/** What an owner has: made over HTTP as that owner. */
interface Objects {
  owner: Session;
  conversationId: string;
  turnId: string;
  runId: string;
  doc: StoredDocument;
  image: StoredDocument;
  agent: SavedAgent;
  connectionId: string;
}
const objects = new Map<Session, Objects>();

async function upload(owner: Session, name: string, body: string | Buffer, conversationId?: string) {
  const query = `name=${name}${conversationId ? `&conversationId=${conversationId}` : ''}`;
  const up = await request(app.url, `/api/files?${query}`, {
    method: 'POST',
    headers: as(app, owner),
    body:
      typeof body === 'string'
        ? body
        : (async function* () {
            yield body;
          })(),
  });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${up.text}`);
  return up.json<{ document: StoredDocument }>().document;
}

async function ok<T>(owner: Session, name: string, args: unknown[]): Promise<T> {
  const r = await resultAs<T>(app, owner, name, args);
  if (!r.ok) throw new Error(`${name}: ${r.error}`);
  return r.value;
}

async function objectsOf(owner: Session): Promise<Objects> {
  const doc = await upload(owner, 'notes.md', '# Notes\n\nsome words\n');
  const conversationId = doc.conversationId;
  const run = await chat(app, owner, { conversationId, message: 'hello' });
  if (run.status !== 200) throw new Error(`chat: ${run.status} ${run.error}`);
  const image = await upload(owner, 'pic.png', await makeImage('png'), conversationId);
  const work = path.join(app.dataDir, 'work', conversationId, 'code_interpreter');
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'result.csv'), 'a,1\n');
  const agent = await ok<SavedAgent>(owner, 'saveAgent', [undefined, { name: 'Probe agent', kind: 'assistant' }]);
  const connection = await ok<ConnectionView>(owner, 'addConnection', [
    { name: 'Probe', baseURL: 'http://model.invalid/v1', saveAnyway: true },
  ]);
  return {
    owner,
    conversationId,
    turnId: run.ids!.turnId,
    runId: run.ids!.runId,
    doc,
    image,
    agent,
    connectionId: connection.id,
  };
}

beforeAll(async () => {
  app = await startApp({
    env: { AUTH: 'required', MAX_RUNS_PER_MINUTE: '10000', MAX_CONCURRENT_RUNS: '20', MCP_CONFIG_EDITABLE: '1' },
    firstPage: '/sign-up',
  });
  admin = await signUp(app, 'admin@example.com');
  await ok(admin, 'updateServerSettings', [{ signUp: 'open' }]);
  a = await signUp(app, 'a@example.com');
  b = await signUp(app, 'b@example.com');
  const key = async (scope: 'read' | 'run') =>
    (await ok<{ secret: string; key: ApiKeyView }>(a, 'createApiKey', [`${scope} key`, scope])).secret;
  keys = { read: await key('read'), run: await key('run') };
  // Until every image is ready, its GET answers 404 even to its owner.
  for (const owner of [a, admin]) objects.set(owner, await objectsOf(owner));
  for (const o of objects.values())
    for (let i = 0; ; i++) {
      const url = `/api/images/${o.conversationId}/${o.image.hash}`;
      if ((await request(app.url, url, { headers: as(app, o.owner) })).status === 200) break;
      if (i > 300) throw new Error(`the image ${url} never became ready`);
      await new Promise((r) => setTimeout(r, 100));
    }
}, 180_000);
afterAll(() => app?.stop());

/** Who calls, with whose objects (another user names the first user's; the admin its own). */
interface Caller {
  headers: Record<string, string>;
  mine: Objects;
  owner: Session;
}

function caller(p: Principal): Caller {
  const mine = objects.get(p === 'admin' ? admin : a)!;
  const headers: Record<string, string> =
    p === 'anonymous'
      ? { origin: app.url }
      : p === 'user'
        ? as(app, a)
        : p === 'other-user'
          ? as(app, b)
          : p === 'admin'
            ? as(app, admin)
            : { authorization: `Bearer ${p === 'key-read' ? keys.read : keys.run}` };
  return { headers, mine, owner: mine.owner };
}

// Fresh objects for the probes that remove what they are given (each principal gets its own).
const fresh = {
  conversation: (owner: Session) => actionAs<string>(app, owner, 'startConversation', [{}]),
  /** A message of its own (editing one replaces the turns after it, and their runs). */
  turn: async (owner: Session) => {
    const run = await chat(app, owner, { message: 'to be edited' });
    if (run.status !== 200) throw new Error(`chat: ${run.status} ${run.error}`);
    return run.ids!.turnId;
  },
  doc: (owner: Session) => upload(owner, 'gone.md', 'to be removed'),
  agent: async (owner: Session) =>
    (await ok<SavedAgent>(owner, 'saveAgent', [undefined, { name: 'Gone', kind: 'assistant' }])).id,
  key: async (owner: Session) => (await ok<{ key: ApiKeyView }>(owner, 'createApiKey', ['gone', 'read'])).key.id,
  connection: async (owner: Session) =>
    (
      await ok<ConnectionView>(owner, 'addConnection', [
        { name: 'Gone', baseURL: 'http://model.invalid/v1', saveAnyway: true },
      ])
    ).id,
};

type RouteProbe = (c: Caller) => Promise<Answer>;
type ActionProbe = (c: Caller) => Promise<unknown[]>;

/** A request of the route, as the caller. */
function call(c: Caller, pathname: string, opts: { method?: string; body?: unknown; raw?: string } = {}) {
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  return request(app.url, pathname, {
    method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { ...c.headers, ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body,
  });
}

const ROUTES: Record<string, RouteProbe> = {
  'POST /api/sign-in': (c) => call(c, '/api/sign-in', { body: { token: 'x' } }),
  'GET /api/auth/[...all]': (c) => call(c, '/api/auth/get-session'),
  // A sign-up without its fields: 400, before anything is made (a wrong password would be a 401 of its own).
  'POST /api/auth/[...all]': (c) => call(c, '/api/auth/sign-up/email', { body: {} }),
  'GET /api/health': (c) => call(c, '/api/health'),
  'POST /api/chat': (c) => call(c, '/api/chat', { body: { conversationId: c.mine.conversationId, message: 'hi' } }),
  'GET /api/runs/[runId]/events': (c) => call(c, `/api/runs/${c.mine.runId}/events`),
  'GET /api/files': (c) => call(c, `/api/files?conversationId=${c.mine.conversationId}`),
  'POST /api/files': (c) => call(c, `/api/files?name=more.md&conversationId=${c.mine.conversationId}`, { raw: 'more' }),
  'GET /api/files/[id]': (c) => call(c, `/api/files/${c.mine.doc.id}`),
  'DELETE /api/files/[id]': async (c) => call(c, `/api/files/${(await fresh.doc(c.owner)).id}`, { method: 'DELETE' }),
  'GET /api/images/[conversationId]/[hash]': (c) =>
    call(c, `/api/images/${c.mine.conversationId}/${c.mine.image.hash}`),
  'GET /api/artifacts/[conversationId]/[...path]': (c) => call(c, `/api/artifacts/${c.mine.conversationId}/result.csv`),
  'POST /api/local-models': (c) => call(c, '/api/local-models?name=probe.gguf', { raw: 'not a model' }),
  'GET /api/local-models/downloads': (c) => call(c, '/api/local-models/downloads?name=nothing.gguf'),
  'GET /v1/models': (c) => call(c, '/v1/models'),
  'GET /v1/models/[model]': (c) => call(c, `/v1/models/${c.mine.agent.id}`),
  'POST /v1/chat/completions': (c) =>
    call(c, '/v1/chat/completions', { body: { model: c.mine.agent.id, messages: [{ role: 'user', content: 'hi' }] } }),
  'OPTIONS /v1/chat/completions': (c) => call(c, '/v1/chat/completions', { method: 'OPTIONS' }),
  'OPTIONS /v1/models': (c) => call(c, '/v1/models', { method: 'OPTIONS' }),
  'OPTIONS /v1/models/[model]': (c) => call(c, `/v1/models/${c.mine.agent.id}`, { method: 'OPTIONS' }),
  // What /v1 does not serve: a 405 (let in) or a 404 (let in: see MISSING_FOR_OWNER_TOO).
  'GET /v1/chat/completions': (c) => call(c, '/v1/chat/completions'),
  'PUT /v1/chat/completions': (c) => call(c, '/v1/chat/completions', { method: 'PUT', body: {} }),
  'PATCH /v1/chat/completions': (c) => call(c, '/v1/chat/completions', { method: 'PATCH', body: {} }),
  'DELETE /v1/chat/completions': (c) => call(c, '/v1/chat/completions', { method: 'DELETE' }),
  'POST /v1/models': (c) => call(c, '/v1/models', { body: {} }),
  'PUT /v1/models': (c) => call(c, '/v1/models', { method: 'PUT', body: {} }),
  'PATCH /v1/models': (c) => call(c, '/v1/models', { method: 'PATCH', body: {} }),
  'DELETE /v1/models': (c) => call(c, '/v1/models', { method: 'DELETE' }),
  'POST /v1/models/[model]': (c) => call(c, `/v1/models/${c.mine.agent.id}`, { body: {} }),
  'PUT /v1/models/[model]': (c) => call(c, `/v1/models/${c.mine.agent.id}`, { method: 'PUT', body: {} }),
  'PATCH /v1/models/[model]': (c) => call(c, `/v1/models/${c.mine.agent.id}`, { method: 'PATCH', body: {} }),
  'DELETE /v1/models/[model]': (c) => call(c, `/v1/models/${c.mine.agent.id}`, { method: 'DELETE' }),
  'GET /v1/[[...path]]': (c) => call(c, '/v1/files'),
  'POST /v1/[[...path]]': (c) => call(c, '/v1/embeddings', { body: { model: 'fncall', input: 'hi' } }),
  'PUT /v1/[[...path]]': (c) => call(c, '/v1/files/x', { method: 'PUT', body: {} }),
  'PATCH /v1/[[...path]]': (c) => call(c, '/v1/fine_tuning/jobs/x', { method: 'PATCH', body: {} }),
  'DELETE /v1/[[...path]]': (c) => call(c, '/v1/files/x', { method: 'DELETE' }),
  'OPTIONS /v1/[[...path]]': (c) => call(c, '/v1/embeddings', { method: 'OPTIONS' }),
};

const ACTIONS: Record<string, ActionProbe> = {
  listApiKeys: async () => [],
  createApiKey: async () => ['probe', 'read'],
  revokeApiKey: async (c) => [await fresh.key(c.owner)],
  listUsers: async () => [],
  setUserDisabled: async () => [MISSING, false],
  deleteUser: async () => [MISSING],
  resetUserPassword: async () => [MISSING, 'another good password'],
  updateServerSettings: async () => [{ signUp: 'open' }],
  createInvite: async () => [],
  listInvites: async () => [],
  revokeInvite: async () => [MISSING],
  listAgents: async () => [],
  saveAgent: async (c) => [c.mine.agent.id, { name: 'Probe agent', kind: 'assistant', systemMessage: 'probed' }],
  deleteAgent: async (c) => [await fresh.agent(c.owner)],
  listUploadedDocuments: async () => [],
  exportAgentFile: async (c) => [c.mine.agent.id],
  importAgentFile: async () => ['{}'],
  // A draft without messages and a group without members are refused (400) after the door: no model call.
  draftAgentGroup: async () => [{ messages: [] }],
  saveAgentGroup: async () => [{ name: 'Probe group', members: [] }],
  sendMessage: async (c) => [{ conversationId: c.mine.conversationId, message: 'hi' }],
  regenerate: async (c) => [c.mine.turnId],
  editAndResend: async (c) => [await fresh.turn(c.owner), 'hello again'],
  simulateUserTurn: async (c) => [c.mine.conversationId, {}],
  continueRun: async (c) => [c.mine.runId],
  loadTurnAnswer: async (c) => [c.mine.turnId, 1],
  settledTitle: async (c) => [c.mine.conversationId],
  documentPage: async (c) => [c.mine.doc.hash, 1],
  saveWebSearchSetting: async () => [{ provider: 'off' }],
  stopRun: async (c) => [c.mine.runId],
  followRun: async (c) => [c.mine.runId],
  listConversations: async () => [],
  conversationListVersion: async () => [],
  loadConversation: async (c) => [c.mine.conversationId],
  renameConversation: async (c) => [c.mine.conversationId, 'Probed'],
  deleteConversation: async (c) => [await fresh.conversation(c.owner)],
  saveSettings: async (c) => [c.mine.conversationId, {}],
  appInfo: async () => [],
  uploadLimit: async () => [],
  startConversation: async () => [{}],
  loadRunForInspection: async (c) => [c.mine.runId],
  loadIterationRequest: async (c) => [c.mine.runId, 1],
  integrationsStatus: async () => [],
  readMcpConfigText: async () => [],
  saveMcpConfigText: async () => ['{\n  "mcpServers": {}\n}\n', PASSWORD],
  listModels: async () => [],
  listConnections: async () => [],
  addConnection: async () => [{ name: 'Probe', baseURL: 'http://model.invalid/v1', saveAnyway: true }],
  updateConnection: async (c) => [c.mine.connectionId, { name: 'Probed' }],
  removeConnection: async (c) => [await fresh.connection(c.owner)],
  testConnection: async (c) => [{ id: c.mine.connectionId }],
  scanServers: async () => [],
  useFoundServer: async () => [1],
  localModels: async () => [],
  startDownload: async () => [{ catalogId: 'no-such-model' }],
  stopDownload: async () => ['nothing.gguf'],
  dismissDownload: async () => ['nothing.gguf'],
  listTurnRuns: async (c) => [c.mine.turnId],
  compareTurnRuns: async (c) => [c.mine.runId, c.mine.runId],
  replaySource: async (c) => [c.mine.runId],
  replayRun: async (c) => [c.mine.runId, { fromIteration: 1 }],
  decideTool: async (c) => [c.mine.runId, 'call-1', { action: 'skip' }],
  loadRunsView: async () => [{}],
};

/** Entry points whose answer is "missing" even to the owner with these probes (a run that has ended is not stopped,
 *  followed or waiting for a decision; no ACCESS_TOKEN to sign in with; no such download; the admin's probes name a
 *  user who does not exist; a path /v1 does not serve): let in all the same. */
const MISSING_FOR_OWNER_TOO = new Set([
  'stopRun',
  'setUserDisabled',
  'deleteUser',
  'resetUserPassword',
  'followRun',
  'decideTool',
  'POST /api/sign-in',
  'GET /api/local-models/downloads',
  // A path /v1 does not serve answers 404 to everyone let in.
  'GET /v1/[[...path]]',
  'POST /v1/[[...path]]',
  'PUT /v1/[[...path]]',
  'PATCH /v1/[[...path]]',
  'DELETE /v1/[[...path]]',
  'OPTIONS /v1/[[...path]]',
]);

type Seen = Outcome | `HTTP ${number}`;

/** What the caller got, in the matrix's terms. */
function routeOutcome(answer: Answer): Seen {
  if (answer.status === 401 || answer.status === 403) return answer.status;
  if (answer.status === 404) return 'missing';
  return answer.status < 500 ? 'allowed' : `HTTP ${answer.status}`;
}

function actionOutcome(answer: Answer): Seen {
  if (answer.status === 401 || answer.status === 403) return answer.status;
  if (answer.status !== 200) return `HTTP ${answer.status}`;
  const row = answer.text.split('\n').find((l) => l.startsWith('1:'));
  let value: unknown;
  try {
    value = row ? JSON.parse(row.slice(2)) : undefined;
  } catch {
    return 'allowed'; // a stream or a reference: the action ran
  }
  if (value === null || value === false) return 'missing';
  const failed = value as { ok?: unknown; status?: unknown };
  if (failed && typeof failed === 'object' && failed.ok === false) {
    if (failed.status === 401 || failed.status === 403) return failed.status;
    if (failed.status === 404) return 'missing';
  }
  return 'allowed';
}

describe('the access matrix, cell by cell, against the built server', () => {
  it('every entry point has its probe here (and every probe an entry point)', () => {
    const entries = entryPoints();
    expect(Object.keys(ROUTES).sort()).toEqual(
      entries
        .filter((e) => e.kind === 'route')
        .map((e) => e.entry)
        .sort(),
    );
    expect(Object.keys(ACTIONS).sort()).toEqual(
      entries
        .filter((e) => e.kind === 'action')
        .map((e) => e.entry)
        .sort(),
    );
  });

  it.each(entryPoints().map((e) => [e.kind === 'route' ? e.entry : `${e.entry} (action)`, e] as const))(
    '%s',
    async (_name, { entry, kind, rule }) => {
      const seen: Record<string, Seen> = {};
      const expected: Record<string, Outcome> = {};
      // Another user first: what it must not reach is still there for the others' calls.
      for (const principal of ['other-user', ...PRINCIPALS.filter((p) => p !== 'other-user')] as Principal[]) {
        const c = caller(principal);
        let outcome: Seen;
        if (kind === 'route') outcome = routeOutcome(await ROUTES[entry]!(c));
        else {
          const args = await ACTIONS[entry]!(c);
          const answer = await request(app.url, actionPage(entry), {
            method: 'POST',
            headers: {
              'next-action': actionId(entry),
              'content-type': 'text/plain;charset=UTF-8',
              accept: 'text/x-component',
              origin: app.url,
              ...c.headers,
            },
            body: JSON.stringify(args),
          });
          outcome = actionOutcome(answer);
        }
        const want = expectedOutcome(rule, principal);
        // Let in, the owner may still be told "missing" where the probe's object cannot be acted on any more.
        seen[principal] =
          want === 'allowed' && outcome === 'missing' && MISSING_FOR_OWNER_TOO.has(entry) ? 'allowed' : outcome;
        expected[principal] = want;
      }
      expect(seen).toEqual(expected);
    },
  );
});
