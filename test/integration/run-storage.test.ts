// Each user's allowance of stored run events (RUN_BYTES_PER_DAY): the chat service as the app builds it, over a real
// SQLite file and a real PostgreSQL database, with the scripted model server over HTTP streaming an answer that never
// ends. Before, nothing bounded what one user's runs wrote to the disk every user's runs share: such an answer went
// on until its model-call limits, and the next one after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { everyToolActor } from '../../lib/chat/actor';
import type { ChatService } from '../../lib/chat/service';
import { createChatModel } from '../../lib/llm';
import { openStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { chatContext, drain, follow } from '../support/chat';
import { freshDatabase, postgresMissing, type TestDatabase } from '../support/postgres';

const ALLOWANCE = 40_000;
const HEAVY = everyToolActor(ownerScope('heavy-user'));
const OTHER = everyToolActor(ownerScope('other-user'));

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
  server.setScenario({
    rules: [
      { when: { lastUserIncludes: 'on and on' }, reply: { content: 'Gannets ', endless: 'text', chunkSize: 400 } },
    ],
    fallback: 'echo',
  });
});
afterAll(async () => {
  await server?.close();
});

const missing = postgresMissing();
describe('on SQLite', () => allowance(async () => undefined));
if (missing) describe('on PostgreSQL', () => it.skip(`skipped: ${missing}`, () => undefined));
else
  describe('on PostgreSQL', () => {
    let db: TestDatabase;
    afterAll(() => db.drop());
    allowance(async () => (db = await freshDatabase('run_storage')).url);
  });

function allowance(database: () => Promise<string | undefined>): void {
  let dir: string;
  let store: ChatStore;
  let chat: ChatService;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'run-storage-'));
    store = await openStore(dir, { databaseUrl: await database() });
    const agents = () =>
      new FnCallAgent({
        llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k', generateCfg: { max_retries: 0 } }),
      });
    chat = (await chatContext(store, agents, { DATA_DIR: dir, RUN_BYTES_PER_DAY: String(ALLOWANCE) })).chat;
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the run that spends a user’s allowance, keeping what it had, and starts none of theirs until it is back', async () => {
    const requestsBefore = server.requests.length;
    const started = await chat.send(HEAVY, { message: 'Go on and on', settings: { tools: [] } });
    const events = await drain(follow(chat, HEAVY.owner, started.runId));

    // Stopped as soon as its log passed the allowance (by less than one write's worth), with the reason.
    const end = events.at(-1);
    expect(end).toMatchObject({
      type: 'run-end',
      reason: 'error',
      error: { code: 'run-storage-spent', status: 429, name: 'RunStorageLimit' },
    });
    expect(end?.type === 'run-end' && end.error?.message).toMatch(
      /^This run was stopped: your runs have stored 39\.1 KB in the last 24 hours.*RUN_BYTES_PER_DAY\)\. What it had is kept/,
    );
    const stored = await store.getRunEvents(HEAVY.owner, started.runId);
    const bytes = stored.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)), 0);
    expect(bytes).toBeGreaterThan(ALLOWANCE);
    expect(bytes).toBeLessThan(ALLOWANCE * 2);
    expect(stored.at(-1)).toEqual(end);
    expect((await store.getRun(HEAVY.owner, started.runId))?.status).toBe('error');
    // What it had streamed is there after a reload.
    const answer = stored.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(answer.length).toBeGreaterThan(10_000);
    expect(answer).toMatch(/^Gannets /);
    expect(server.requests.length).toBe(requestsBefore + 1);

    // The next message of that user is refused before anything is stored; another user's is answered.
    const turns = (await chat.openConversation(HEAVY, started.conversationId)).turns.length;
    await expect(
      chat.send(HEAVY, { message: 'One more, briefly', conversationId: started.conversationId }),
    ).rejects.toMatchObject({
      name: 'RateLimitError',
      status: 429,
      code: 'run-storage-budget',
      values: { limit: '39.1 KB', hours: 24 },
      message:
        "Your runs have stored 39.1 KB in the last 24 hours, the most one user's may (RUN_BYTES_PER_DAY). Try again in 24 h.",
    });
    expect((await chat.openConversation(HEAVY, started.conversationId)).turns).toHaveLength(turns);
    await expect(chat.send(HEAVY, { message: 'A new chat' })).rejects.toMatchObject({ code: 'run-storage-budget' });
    expect((await store.listConversations(HEAVY.owner)).map((c) => c.id)).toEqual([started.conversationId]);

    const other = await chat.send(OTHER, { message: 'Hello gannets', settings: { tools: [] } });
    expect((await drain(follow(chat, OTHER.owner, other.runId))).at(-1)).toMatchObject({ reason: 'answered' });
  });
}
