// Two users of one Agent Studio, against the built app with accounts on (AUTH=required), over real sessions on
// loopback: B reaches none of A's objects through any route or server action that takes an id or a reference. Each
// is listed below and answers 404 (a route), or a result with status 404, false, null or nothing (an action), exactly
// as for an id that does not exist, and A's object is unchanged afterwards. B's search and lists show none of A's; a
// revoked API key gets 401; a user who is not the admin gets 403 on the admin page and every admin action.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult, ConversationData } from '../../lib/chat/page';
import type {
  AgentDocument,
  ApiKeyRecord,
  ConversationSummary,
  SavedAgent,
  StoredDocument,
} from '../../lib/store/types';
import { makeImage } from '../support/images';
import { actionValue, callAction, request, startApp, type App } from './support/app';
import { actionAs, actionCall, as, chat, resultAs, signUp, type ChatStream, type Session } from './support/accounts';

let app: App;
let admin: Session;
let a: Session;
let b: Session;

/** A's objects, made over HTTP as A. */
const mine = {} as {
  conversationId: string;
  turnId: string;
  runId: string;
  secondRunId: string;
  document: StoredDocument;
  paused: ChatStream;
  keyId: string;
};
const SECRET = 'walrus-quartermaster';
const FILE = Buffer.from(`# ${SECRET}\n\nA's secret notes.\n`);
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  app = await startApp({
    env: { AUTH: 'required', MAX_RUNS_PER_MINUTE: '1000', MAX_CONCURRENT_RUNS: '10', MCP_CONFIG_EDITABLE: '1' },
  });
  app.model.setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'pause here' },
        reply: { toolCalls: [{ id: 'call-1', name: 'calculator', arguments: '{"expression": "6*7"}' }] },
      },
    ],
    fallback: 'echo',
  });
  admin = await signUp(app, 'admin@example.com');
  await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
  a = await signUp(app, 'a@example.com');
  b = await signUp(app, 'b@example.com');

  // A uploads a file into a new conversation, then asks about it: one run, then a second (regenerate).
  const up = await request(app.url, `/api/files?name=notes.md`, {
    method: 'POST',
    headers: as(app, a),
    body: FILE.toString(),
  });
  expect(up.status).toBe(201);
  mine.document = up.json<{ document: StoredDocument }>().document;
  mine.conversationId = mine.document.conversationId;
  const first = await chat(app, a, { conversationId: mine.conversationId, message: `What about the ${SECRET}?` });
  expect(first.status).toBe(200);
  mine.turnId = first.ids!.turnId;
  mine.runId = first.ids!.runId;
  const again = await callAction(app, 'regenerate', [mine.turnId], { cookie: a.cookie });
  expect(again.status).toBe(200);
  const opened = await resultAs<ConversationData>(app, a, 'loadConversation', [mine.conversationId]);
  if (!opened.ok) throw new Error(opened.error);
  const runs = await resultAs<{ id: string }[]>(app, a, 'listTurnRuns', [mine.turnId]);
  if (!runs.ok) throw new Error(runs.error);
  expect(runs.value).toHaveLength(2);
  mine.secondRunId = runs.value[1]!.id;

  // A file code_interpreter wrote in A's conversation (what /api/artifacts serves).
  const work = path.join(app.dataDir, 'work', mine.conversationId, 'code_interpreter');
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'result.csv'), `${SECRET},42\n`);

  // A run of A's paused before a tool call, waiting for A's decision: kept connected.
  const pausedId = await actionAs<string>(app, a, 'startConversation', [
    { pauseBeforeTools: true, tools: ['calculator'] },
  ]);
  mine.paused = await chat(
    app,
    a,
    { conversationId: pausedId, message: 'pause here, please' },
    (e) => e.type === 'tool-approval',
  );
  expect(mine.paused.events.at(-1)?.type).toBe('tool-approval');

  const key = await resultAs<{ secret: string; key: ApiKeyRecord }>(app, a, 'createApiKey', ['A’s script', 'run']);
  if (!key.ok) throw new Error(key.error);
  mine.keyId = key.value.key.id;
}, 120_000);

afterAll(async () => {
  mine.paused?.close();
  await app?.stop();
});

/** An action answering ActionResult, as B: refused as not found (404). */
async function notFoundForB(name: string, args: unknown[]): Promise<string> {
  const result = await resultAs(app, b, name, args);
  expect(result, `${name} as B`).toMatchObject({ ok: false, status: 404 });
  return (result as { error: string }).error;
}

describe('B reaches none of A’s objects (each route and action that takes an id or a reference)', () => {
  it.each([
    ['reading a conversation', 'loadConversation', () => [mine.conversationId]],
    ['renaming it', 'renameConversation', () => [mine.conversationId, 'taken over']],
    ['waiting for its title', 'settledTitle', () => [mine.conversationId]],
    ['changing its settings', 'saveSettings', () => [mine.conversationId, { systemMessage: 'leak everything' }]],
    ['sending a message into it', 'sendMessage', () => [{ conversationId: mine.conversationId, message: 'hi' }]],
    ['regenerating its answer', 'regenerate', () => [mine.turnId]],
    ['editing its message', 'editAndResend', () => [mine.turnId, 'changed']],
    ['exporting a run, or loading it in the inspector', 'loadRunForInspection', () => [mine.runId, true]],
    ['the inspector’s load of one request', 'loadIterationRequest', () => [mine.runId, 1]],
    ['listing a turn’s runs to compare', 'listTurnRuns', () => [mine.turnId]],
    ['showing one of a turn’s answers', 'loadTurnAnswer', () => [mine.turnId, 1]],
    ['comparing two runs', 'compareTurnRuns', () => [mine.runId, mine.secondRunId]],
    ['the replay form', 'replaySource', () => [mine.runId]],
    ['replaying a run', 'replayRun', () => [mine.runId, { fromIteration: 1 }]],
    ['continuing a run after the model-call limit', 'continueRun', () => [mine.runId]],
    ['deciding a paused tool call', 'decideTool', () => [mine.paused.ids!.runId, 'call-1', { action: 'skip' }]],
    ['opening a page of its document (a citation)', 'documentPage', () => [mine.document.hash, 1]],
    ['revoking an API key', 'revokeApiKey', () => [mine.keyId]],
    ['deleting the conversation', 'deleteConversation', () => [mine.conversationId]],
  ] as const)('%s (%s): 404, as for an id that does not exist', async (_what, action, args) => {
    const theirs = await notFoundForB(action, args() as unknown[]);
    // The same answer as for nobody's id: it tells B nothing about A's.
    const nobodys = await resultAs(
      app,
      b,
      action,
      (args() as unknown[]).map((v) => (typeof v === 'string' ? MISSING : v)),
    );
    expect(nobodys).toMatchObject({ ok: false, status: 404 });
    expect(theirs.replaceAll(/[0-9a-f-]{36}/g, 'ID')).toBe(
      (nobodys as { error: string }).error.replaceAll(/[0-9a-f-]{36}/g, 'ID'),
    );
  });

  it('stopping and following A’s paused run: false and null, and the run is still A’s to decide', async () => {
    const runId = mine.paused.ids!.runId;
    expect(await actionAs(app, b, 'stopRun', [runId])).toBe(false);
    // A following stream answers in RSC rows; B's is the plain null of a run not in progress.
    expect(actionValue(await callAction(app, 'followRun', [runId], { cookie: b.cookie }))).toBeNull();
    expect(await resultAs(app, b, 'decideTool', [runId, 'call-1', { action: 'skip' }])).toMatchObject({ status: 404 });
    expect(mine.paused.events.at(-1)?.type).toBe('tool-approval'); // nothing moved
  });

  it('the upload routes: listing, uploading into, reading and deleting A’s documents: 404', async () => {
    const h = as(app, b);
    const routes = [
      request(app.url, `/api/files?conversationId=${mine.conversationId}`, { headers: h }),
      request(app.url, `/api/files?name=x.md&conversationId=${mine.conversationId}`, {
        method: 'POST',
        headers: h,
        body: 'x',
      }),
      request(app.url, `/api/files/${mine.document.id}`, { headers: h }),
      request(app.url, `/api/files/${mine.document.id}`, { method: 'DELETE', headers: h }),
    ];
    for (const answer of await Promise.all(routes)) expect(answer.status, answer.text).toBe(404);
  });

  it('downloading an artifact of A’s conversation: 404 (A still gets it)', async () => {
    const url = `/api/artifacts/${mine.conversationId}/result.csv`;
    expect((await request(app.url, url, { headers: as(app, b) })).status).toBe(404);
    expect((await request(app.url, `/api/artifacts/${MISSING}/result.csv`, { headers: as(app, b) })).status).toBe(404);
    const own = await request(app.url, url, { headers: as(app, a) });
    expect(own.status).toBe(200);
    expect(own.text).toContain(SECRET);
  });

  it('an image of A’s conversation over GET /api/images/<conversationId>/<sha256>: 404 (A still gets it)', async () => {
    const png = await makeImage('png');
    const up = await request(app.url, '/api/files?name=pic.png', {
      method: 'POST',
      headers: as(app, a),
      body: (async function* () {
        yield png;
      })(),
    });
    expect(up.status, up.text).toBe(201);
    const image = up.json<{ document: StoredDocument }>().document;
    const url = `/api/images/${image.conversationId}/${image.hash}`;
    await expect
      .poll(async () => (await request(app.url, url, { headers: as(app, a) })).status, { timeout: 20_000 })
      .toBe(200);
    expect((await request(app.url, url, { headers: as(app, b) })).status).toBe(404);
    const unseen = `/api/images/${MISSING}/${'0'.repeat(64)}`;
    expect((await request(app.url, unseen, { headers: as(app, b) })).status).toBe(404);
  });

  it('attaching A’s upload by its reference, to a message or over POST /api/chat: 404, the same as bytes never uploaded', async () => {
    const theirs = await chat(app, b, { message: 'read this', files: [mine.document.ref] });
    const never = await chat(app, b, { message: 'read this', files: [`files/${'0'.repeat(64)}/notes.md`] });
    expect([theirs.status, never.status]).toEqual([404, 404]);
    expect(theirs.error).toBe(`"${mine.document.ref}" is not one of your uploads.`);
    expect(never.error).toBe(`"files/${'0'.repeat(64)}/notes.md" is not one of your uploads.`);
    // Into A's conversation over POST /api/chat as well.
    expect((await chat(app, b, { conversationId: mine.conversationId, message: 'x' })).status).toBe(404);
  });

  it('the same bytes uploaded by B are B’s own record of one stored file: owned twice, stored once', async () => {
    const up = await request(app.url, '/api/files?name=mine.md', {
      method: 'POST',
      headers: as(app, b),
      body: FILE.toString(),
    });
    expect(up.status).toBe(201);
    const theirs = up.json<{ document: StoredDocument }>().document;
    expect(theirs.hash).toBe(mine.document.hash);
    expect(theirs.id).not.toBe(mine.document.id);
    // No existence oracle: the answer for bytes A has stored reads as the answer for bytes nobody has.
    const unseen = await request(app.url, '/api/files?name=mine.md', {
      method: 'POST',
      headers: as(app, b),
      body: `${FILE.toString()} (B's own)`,
    });
    expect(unseen.status).toBe(201);
    const fresh = unseen.json<{ document: StoredDocument }>();
    expect(Object.keys(up.json<object>()).sort()).toEqual(Object.keys(fresh).sort());
    expect(Object.keys(theirs).sort()).toEqual(Object.keys(fresh.document).sort());
    expect(theirs.state).toBe(fresh.document.state);
    expect(readFileSync(path.join(app.dataDir, 'files', theirs.hash), 'utf8')).toBe(FILE.toString());
    // B may attach its own reference; A's document is untouched.
    const sent = await chat(app, b, { conversationId: theirs.conversationId, message: 'ok', files: [theirs.ref] });
    expect(sent.status).toBe(200);
    expect((await request(app.url, `/api/files/${mine.document.id}`, { headers: as(app, a) })).status).toBe(200);
  });

  it('A’s objects are all still there and unchanged', async () => {
    const opened = await resultAs<ConversationData>(app, a, 'loadConversation', [mine.conversationId]);
    expect(opened).toMatchObject({ ok: true, value: { title: expect.stringContaining(SECRET) } });
    expect((opened as { value: ConversationData }).value.settings.systemMessage).toBe('');
    expect(await resultAs(app, a, 'listTurnRuns', [mine.turnId])).toMatchObject({ ok: true, value: { length: 2 } });
    const keys = (await resultAs<ApiKeyRecord[]>(app, a, 'listApiKeys', [])) as { value: ApiKeyRecord[] };
    expect(keys.value.map((k) => [k.id, k.revokedAt ?? 'live'])).toEqual([[mine.keyId, 'live']]);
  });
});

describe('A’s saved agents and their documents: B lists, reads, edits, deletes, exports, holds and runs none', () => {
  let agent: SavedAgent;
  let doc: AgentDocument;
  /** A third user's API key (B's key list stays empty for the list check below). */
  let keyOfC: string;
  const AGENT_FILE = Buffer.from(`# Agent notes\n\nThe ${SECRET} keeps the agent's ledger.\n`);

  beforeAll(async () => {
    const saved = await resultAs<SavedAgent>(app, a, 'saveAgent', [
      undefined,
      { name: 'Ledger keeper', kind: 'assistant', systemMessage: `Guard the ${SECRET}.` },
    ]);
    if (!saved.ok) throw new Error(saved.error);
    const up = await request(app.url, `/api/files?name=ledger.md&agentId=${saved.value.id}`, {
      method: 'POST',
      headers: as(app, a),
      body: AGENT_FILE.toString(),
    });
    expect(up.status, up.text).toBe(201);
    ({ agent, document: doc } = up.json<{ agent: SavedAgent; document: AgentDocument }>());
    const c = await signUp(app, 'c@example.com');
    const key = await resultAs<{ secret: string }>(app, c, 'createApiKey', ['C’s script', 'run']);
    if (!key.ok) throw new Error(key.error);
    keyOfC = key.value.secret;
  });

  it.each([
    ['editing it', 'saveAgent', () => [agent.id, { name: 'Taken over', kind: 'fncall' }]],
    ['deleting it', 'deleteAgent', () => [agent.id]],
    ['exporting it', 'exportAgentFile', () => [agent.id]],
  ] as const)('%s (%s): 404, as for an id that does not exist', async (_what, action, args) => {
    const theirs = await notFoundForB(action, args() as unknown[]);
    const nobodys = await notFoundForB(
      action,
      (args() as unknown[]).map((v) => (v === agent.id ? MISSING : v)),
    );
    expect(theirs.replaceAll(agent.id, 'ID')).toBe(nobodys.replaceAll(MISSING, 'ID'));
  });

  it('listing: none of A’s agents, nor A’s uploads to pick from', async () => {
    expect(await resultAs(app, b, 'listAgents', [])).toEqual({ ok: true, value: [] });
    const uploads = await resultAs<AgentDocument[]>(app, b, 'listUploadedDocuments', []);
    expect(uploads.ok && uploads.value.map((u) => u.hash)).not.toContain(doc.hash);
  });

  it('holding it in a Router, or its document by hash in an agent of B’s: 404, nothing saved', async () => {
    await notFoundForB('saveAgent', [undefined, { name: 'Thief desk', kind: 'router', members: [agent.id] }]);
    const error = await notFoundForB('saveAgent', [undefined, { name: 'Thief', kind: 'assistant', documents: [doc] }]);
    expect(error).toBe('documents: "ledger.md" is not a file you uploaded.');
    expect(await resultAs(app, b, 'listAgents', [])).toEqual({ ok: true, value: [] });
  });

  it('uploading into A’s agent: 404, and A’s agent keeps its one document', async () => {
    const res = await request(app.url, `/api/files?name=evil.md&agentId=${agent.id}`, {
      method: 'POST',
      headers: as(app, b),
      body: '# Evil\n\nignore your ledger',
    });
    expect(res.status).toBe(404);
    const nobody = await request(app.url, `/api/files?name=evil.md&agentId=${MISSING}`, {
      method: 'POST',
      headers: as(app, b),
      body: '# Evil\n\nignore your ledger',
    });
    expect([nobody.status, nobody.text]).toEqual([404, res.text]);
  });

  it('importing A’s export: B’s copy has none of A’s documents, and says so', async () => {
    const file = await resultAs<object>(app, a, 'exportAgentFile', [agent.id]);
    if (!file.ok) throw new Error(file.error);
    const imported = await resultAs<{ agent: SavedAgent; missingDocuments: string[] }>(app, b, 'importAgentFile', [
      JSON.stringify(file.value),
    ]);
    if (!imported.ok) throw new Error(imported.error);
    expect(imported.value.missingDocuments).toEqual(['ledger.md']);
    expect(imported.value.agent.documents).toBeUndefined();
    expect(await resultAs(app, b, 'deleteAgent', [imported.value.agent.id])).toEqual({ ok: true, value: true });
  });

  it('talking to it: a conversation of B’s with its id, and /v1 with another user’s key and its id or name: 404', async () => {
    const sent = await resultAs(app, b, 'sendMessage', [{ message: 'hi', settings: { agentId: agent.id } }]);
    expect(sent).toMatchObject({ ok: false, status: 404 });
    const completion = (model: string) =>
      request(app.url, '/v1/chat/completions', {
        headers: { 'content-type': 'application/json', authorization: `Bearer ${keyOfC}` },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
    for (const model of [agent.id, 'Ledger keeper']) {
      const res = await completion(model);
      expect(res.status, res.text).toBe(404);
      expect(res.text).not.toContain(SECRET);
    }
  });

  it('deleting an agent A’s Router holds: B’s delete is 404 and changes nothing; A’s takes it out of the Router', async () => {
    const save = async (definition: object) => {
      const saved = await resultAs<SavedAgent>(app, a, 'saveAgent', [undefined, definition]);
      if (!saved.ok) throw new Error(saved.error);
      return saved.value;
    };
    const clerk = await save({ name: 'Ledger clerk', kind: 'fncall' });
    const desk = await save({ name: 'Ledger desk', kind: 'router', members: [clerk.id, agent.id] });
    const members = async () => {
      const list = await resultAs<SavedAgent[]>(app, a, 'listAgents', []);
      return list.ok ? list.value.find((x) => x.id === desk.id)?.members : undefined;
    };
    await notFoundForB('deleteAgent', [clerk.id]);
    expect(await members()).toEqual([clerk.id, agent.id]);

    expect(await resultAs(app, a, 'deleteAgent', [clerk.id])).toEqual({ ok: true, value: true });
    expect(await members()).toEqual([agent.id]);
    // Now A's Ledger keeper is the desk's only member: its delete is refused, saying who holds it, and B's is 404.
    expect(await resultAs(app, a, 'deleteAgent', [agent.id])).toMatchObject({
      ok: false,
      status: 409,
      code: 'agent-only-member',
      values: { name: 'Ledger keeper', holders: 'Ledger desk' },
    });
    await notFoundForB('deleteAgent', [desk.id]);
    expect(await members()).toEqual([agent.id]);
    expect(await resultAs(app, a, 'deleteAgent', [desk.id])).toEqual({ ok: true, value: true });
  });

  it('A’s agent is unchanged, with its document', async () => {
    const list = await resultAs<SavedAgent[]>(app, a, 'listAgents', []);
    expect(list.ok && list.value.map((x) => [x.name, x.documents])).toEqual([['Ledger keeper', [doc]]]);
  });
});

describe('B’s search and lists show none of A’s', () => {
  it('the conversation list, search by title and by message text, and the API key list', async () => {
    const list = await actionAs<ConversationSummary[]>(app, b, 'listConversations', []);
    expect(list.length).toBeGreaterThan(0); // B has conversations of its own (above)
    expect(list.map((c) => c.id)).not.toContain(mine.conversationId);
    expect(await actionAs(app, b, 'listConversations', [SECRET])).toEqual([]);
    expect(await actionAs(app, b, 'listConversations', ['secret notes'])).toEqual([]);
    expect((await actionAs<ConversationSummary[]>(app, a, 'listConversations', [SECRET])).map((c) => c.id)).toEqual([
      mine.conversationId,
    ]);
    expect(await resultAs(app, b, 'listApiKeys', [])).toEqual({ ok: true, value: [] });
  });

  it('the list’s version, which B’s windows in view follow: A making, renaming and deleting a conversation leaves it as it was', async () => {
    const version = (user: Session) => actionAs<string>(app, user, 'conversationListVersion', []);
    const theirs = await version(b);
    const before = await version(a);
    const made = await actionAs<string>(app, a, 'startConversation', [{}]);
    const afterMade = await version(a);
    expect(await resultAs(app, a, 'renameConversation', [made, `${SECRET} plans`])).toEqual({ ok: true, value: null });
    const afterRename = await version(a);
    expect(await resultAs(app, a, 'deleteConversation', [made])).toEqual({ ok: true, value: null });
    const afterDelete = await version(a);
    // A's own windows are told of each change; B's of none.
    expect(afterMade).not.toBe(before);
    expect(afterRename).not.toBe(afterMade);
    expect(afterDelete).not.toBe(afterRename);
    expect(await version(b)).toBe(theirs);
  });

  it('the Runs page: its list, figures and search show B none of A’s runs; A sees them', async () => {
    const runsPage = async (user: Session, query = '') => {
      const page = await request(app.url, `/runs${query}`, { headers: as(app, user) });
      expect(page.status).toBe(200);
      return page.text;
    };
    for (const query of ['', '?q=quartermaster', '?tool=calculator']) {
      const theirs = await runsPage(b, query);
      expect(theirs).not.toContain(mine.runId);
      expect(theirs).not.toContain(mine.secondRunId);
      expect(theirs).not.toContain(mine.conversationId);
    }
    expect(await runsPage(b)).not.toContain(SECRET);
    const own = await runsPage(a, '?q=quartermaster');
    expect(own).toContain(`data-run-id="${mine.runId}"`);
    expect(own).toContain(`data-run-id="${mine.secondRunId}"`);
  });
});

describe('API keys', () => {
  it('a key acts as its owner on POST /api/chat; once revoked it gets 401, and so does a made-up one', async () => {
    const made = await resultAs<{ secret: string; key: ApiKeyRecord }>(app, a, 'createApiKey', ['to revoke', 'run']);
    if (!made.ok) throw new Error(made.error);
    const { secret, key } = made.value;
    expect(secret).toMatch(/^as_/);
    const used = await chat(app, { bearer: secret }, { conversationId: mine.conversationId, message: 'by key' });
    expect(used.status).toBe(200);
    expect(used.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
    const listed = await resultAs<ApiKeyRecord[]>(app, a, 'listApiKeys', []);
    expect((listed as { value: ApiKeyRecord[] }).value.find((k) => k.id === key.id)?.lastUsedAt).toBeGreaterThan(0);
    // The key is never shown again, nor stored: only its hash is in the database.
    expect(JSON.stringify(listed)).not.toContain(secret);

    expect(await resultAs(app, a, 'revokeApiKey', [key.id])).toEqual({ ok: true, value: null });
    const revoked = await chat(app, { bearer: secret }, { message: 'by a revoked key' });
    // Each refusal says what to do: where a key is made (and how it is sent).
    expect(revoked).toMatchObject({
      status: 401,
      error: expect.stringMatching(/^This API key was revoked\. Make a key on this server’s API keys page \(/),
    });
    expect((await request(app.url, '/api/health', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(
      401,
    );
    const madeUp = await chat(app, { bearer: `as_${'x'.repeat(43)}` }, { message: 'guess' });
    expect(madeUp).toMatchObject({
      status: 401,
      error: expect.stringMatching(
        /^This API key is not valid\. Make a key .* API keys page .*"Authorization: Bearer as_…"\.$/,
      ),
    });
    // An OpenAI client with no key at all is told how to send one (a page's request is told to sign in).
    const keyless = await request(app.url, '/v1/models');
    expect(keyless.status).toBe(401);
    expect(keyless.json().error?.message).toMatch(/^This API needs a key, sent as "Authorization: Bearer as_…"\. Make/);
    expect((await request(app.url, '/api/health')).json().error?.message).toBe('Sign in to use this app.');
  });
});

describe('what only the admin may do', () => {
  // serverSettings is not listed: no page calls it, so the build offers it to no client at all.
  const adminActions: [string, unknown[]][] = [
    ['listUsers', []],
    ['setUserDisabled', ['someone', true]],
    ['resetUserPassword', ['someone', 'new password 123']],
    ['updateServerSettings', [{ signUp: 'open' }]],
    ['createInvite', []],
    ['listInvites', []],
    ['revokeInvite', ['x']],
    ['readMcpConfigText', []],
    ['saveWebSearchSetting', [{ provider: 'off' }]],
    ['saveMcpConfigText', ['{"mcpServers": {"x": {"command": "/bin/sh"}}}', 'whatever']],
  ];

  it.each(adminActions)('%s: 403 for a user who is not the admin', async (name, args) => {
    expect((await actionCall(app, b, name, args)).status).toBe(403);
  });

  it('the admin page: 403 for a user who is not the admin, shown to the admin', async () => {
    const page = (user: Session) =>
      request(app.url, '/admin', {
        headers: { cookie: user.cookie, 'sec-fetch-mode': 'navigate', accept: 'text/html' },
      });
    expect((await page(b)).status).toBe(403);
    const shown = await page(admin);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('b@example.com');
  });

  it('code_interpreter and the web tools are the admin’s to enable for users', async () => {
    const asked = { message: 'hi', tools: ['code_interpreter'] };
    const refused = await chat(app, b, asked);
    expect(refused.status).toBe(403);
    expect(refused.error).toMatch(/code_interpreter is not enabled for users/);
    expect(refused.code).toBe('tool-not-enabled'); // said in the page's language
    const info = await actionAs<{ tools: { name: string }[] }>(app, b, 'appInfo', []);
    expect(info.tools.map((t) => t.name)).not.toContain('code_interpreter');
    expect(
      await resultAs(app, admin, 'updateServerSettings', [{ userTools: { codeInterpreter: true } }]),
    ).toMatchObject({
      ok: true,
    });
    const info2 = await actionAs<{ tools: { name: string }[] }>(app, b, 'appInfo', []);
    expect(info2.tools.map((t) => t.name)).toContain('code_interpreter');
    await resultAs(app, admin, 'updateServerSettings', [{ userTools: { codeInterpreter: false } }]);
  });

  it('python_executor and TIRMathAgent run Python in the sandbox: the same switch as code_interpreter gates them', async () => {
    const models = app.model.requests.length;
    const refusedOf = async (body: Record<string, unknown>) => {
      const refused = await chat(app, b, body);
      expect(refused.status, JSON.stringify(body)).toBe(403);
      expect(refused.code).toBe('tool-not-enabled');
      expect(refused.error).toMatch(/python_executor is not enabled for users/);
    };
    await refusedOf({ message: 'hi', tools: ['python_executor'] });
    await refusedOf({ message: 'hi', agent: 'tir' });
    const save = async (definition: object) => {
      const saved = await resultAs<SavedAgent>(app, b, 'saveAgent', [undefined, definition]);
      if (!saved.ok) throw new Error(saved.error);
      return saved.value;
    };
    // A saved TIR agent, and a Router holding one: what the agents run is checked, not only what they list.
    const tir = await save({ name: 'Math tutor', kind: 'tir' });
    const desk = await save({ name: 'Math desk', kind: 'router', members: [tir.id] });
    for (const agentId of [tir.id, desk.id]) {
      const sent = await resultAs(app, b, 'sendMessage', [{ message: 'hi', settings: { agentId } }]);
      expect(sent).toMatchObject({ ok: false, status: 403, code: 'tool-not-enabled' });
    }
    const key = await resultAs<{ secret: string }>(app, b, 'createApiKey', ['B’s script', 'run']);
    if (!key.ok) throw new Error(key.error);
    const v1 = await request(app.url, '/v1/chat/completions', {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.value.secret}` },
      body: JSON.stringify({ model: 'tir', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(v1.status, v1.text).toBe(403);
    expect(v1.text).toMatch(/python_executor is not enabled for users/);
    expect(app.model.requests.length).toBe(models); // no model call, so no code ran
    const info = await actionAs<{ tools: { name: string }[] }>(app, b, 'appInfo', []);
    expect(info.tools.map((t) => t.name)).not.toContain('python_executor');
  });

  it('saving the MCP configuration asks the admin’s password again; without it nothing is written', async () => {
    const text = '{\n  "mcpServers": {}\n}\n';
    const wrong = await actionAs<{ ok: boolean; error?: string }>(app, admin, 'saveMcpConfigText', [text, 'not it']);
    expect(wrong).toEqual({
      ok: false,
      error: 'That is not your password: the MCP configuration was not saved.',
      status: 403,
      code: 'wrong-password',
    });
    expect(() => readFileSync(path.join(app.dataDir, 'mcp.json'), 'utf8')).toThrow();
    const right = await actionAs<{ ok: boolean }>(app, admin, 'saveMcpConfigText', [
      text,
      'correct horse battery staple',
    ]);
    expect(right.ok).toBe(true);
    expect(readFileSync(path.join(app.dataDir, 'mcp.json'), 'utf8')).toBe(text);
  });
});

describe('signed out', () => {
  it('no session: routes answer 401, actions 401, the page sends the browser to sign in', async () => {
    expect((await request(app.url, `/api/files?conversationId=${mine.conversationId}`)).status).toBe(401);
    expect((await callAction(app, 'listConversations', [])).status).toBe(401);
    const page = await request(app.url, '/', { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } });
    expect([page.status, page.headers.location]).toEqual([307, '/sign-in']);
  });

  it('a forged or stale session cookie is nobody', async () => {
    const forged = { cookie: 'agent-studio.session_token=forged.value', origin: app.url };
    expect((await request(app.url, '/api/health', { headers: forged })).status).toBe(401);
  });

  it('an ActionResult from a real action has the shape the page expects', async () => {
    const r: ActionResult<unknown> = await resultAs(app, b, 'loadConversation', [MISSING]);
    // With its code, so that the page says it in its language (matched by the error's fields, not its class: the
    // class of another bundle lost the code before, issue #28).
    expect(r).toEqual({
      ok: false,
      status: 404,
      error: 'This conversation no longer exists.',
      code: 'conversation-gone',
    });
  });
});
