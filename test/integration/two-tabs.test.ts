// One conversation open in two tabs (or windows), each sending: the chat service over a real SQLite file, and over a
// real PostgreSQL database (its runs registry is the shared one), with the scripted model server over HTTP. A conversation answers one message at a time: a message sent while another of its
// runs is going or starting is refused (409, conversation-busy) before anything is stored or dropped, so the page
// keeps its text; sent again once the answer is in, it is answered with that exchange in its history. Before, both
// ran at once: the second answer never saw the first message, and the next turn's history held an exchange neither
// model call had seen.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

const OWNER = ownerScope('owner-a');
const ACTOR = everyToolActor(OWNER);
const BUSY = {
  name: 'ConversationBusyError',
  status: 409,
  code: 'conversation-busy',
  message:
    'This conversation is still answering an earlier message (one sent from another tab or window, say). Wait for that answer to end (or stop it), then send again.',
};

let server: ModelServer;
let store: ChatStore;
let chat: ChatService;

beforeAll(async () => {
  server = await createModelServer();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.reset();
  server.setScenario({
    rules: [
      { when: { lastUserIncludes: 'slowly' }, reply: { content: 'Puffins nest in burrows. '.repeat(20), delayMs: 20 } },
    ],
    fallback: 'echo',
  });
});

const missing = postgresMissing();
describe('on SQLite', () => twoTabs(async () => undefined));
if (missing) describe('on PostgreSQL', () => it.skip(`skipped: ${missing}`, () => undefined));
else
  describe('on PostgreSQL', () => {
    let db: TestDatabase;
    afterAll(() => db.drop());
    twoTabs(async () => (db = await freshDatabase('tabs')).url);
    describe('two instances on one database', () => twoInstances(() => db.url));
  });

/** A conversation with one answered exchange, as both tabs show it. */
async function conversation(): Promise<string> {
  const first = await chat.send(ACTOR, { message: 'Hello puffins', settings: { tools: [] } });
  await drain(follow(chat, OWNER, first.runId));
  return first.conversationId;
}

const turnsOf = async (id: string) => (await chat.openConversation(ACTOR, id)).turns.map((t) => t.turn.content);
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

/** `database`: PostgreSQL's URL, or undefined for SQLite in the data directory. */
function twoTabs(database: () => Promise<string | undefined>): void {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'two-tabs-'));
    store = await openStore(dir, { databaseUrl: await database() });
    const agents = () =>
      new FnCallAgent({
        llm: createChatModel({ model: 'scripted', baseURL: server.url, apiKey: 'k', generateCfg: { max_retries: 0 } }),
      });
    chat = (await chatContext(store, agents, { DATA_DIR: dir })).chat;
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('one conversation, two tabs', () => {
    it('two messages sent at once: one is answered, the other refused, nothing stored twice', async () => {
      const id = await conversation();
      const messages = ['Tab A asks slowly', 'Tab B asks slowly'];
      const sent = await Promise.allSettled(
        messages.map((message) => chat.send(ACTOR, { message, conversationId: id })),
      );
      const won = sent.findIndex((s) => s.status === 'fulfilled');
      const lost = sent.findIndex((s) => s.status === 'rejected');
      expect([won, lost].sort()).toEqual([0, 1]);
      expect((sent[lost] as PromiseRejectedResult).reason).toMatchObject(BUSY);
      await drain(follow(chat, OWNER, (sent[won] as PromiseFulfilledResult<{ runId: string }>).value.runId));
      expect(await turnsOf(id)).toEqual(['Hello puffins', messages[won]]);

      // Sent again once the answer is in: answered, with the other tab's exchange in what the model was given.
      const again = await chat.send(ACTOR, { message: messages[lost]!, conversationId: id });
      await drain(follow(chat, OWNER, again.runId));
      expect(await turnsOf(id)).toEqual(['Hello puffins', messages[won], messages[lost]]);
      const history = server.requests.at(-1)!.body.messages.map((m: { content: string }) => m.content);
      expect(history.slice(-3)).toEqual([messages[won], 'Puffins nest in burrows. '.repeat(20), messages[lost]]);
    });

    it('while a run is going, a message, a regenerate or an edit from the other tab is refused and drops nothing', async () => {
      const id = await conversation();
      const going = await chat.send(ACTOR, { message: 'Tell me slowly', conversationId: id });
      const [hello] = (await chat.openConversation(ACTOR, id)).turns;

      expect(await refusal(chat.send(ACTOR, { message: 'Another question', conversationId: id }))).toMatchObject(BUSY);
      expect(await refusal(chat.regenerate(ACTOR, hello!.turn.id))).toMatchObject(BUSY);
      expect(await refusal(chat.editAndResend(ACTOR, hello!.turn.id, 'Hello gannets'))).toMatchObject(BUSY);
      expect(await turnsOf(id)).toEqual(['Hello puffins', 'Tell me slowly']);

      const events = await drain(follow(chat, OWNER, going.runId));
      expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
      // The run was never disturbed, and the conversation takes the next message.
      const next = await chat.send(ACTOR, { message: 'Another question', conversationId: id });
      expect((await drain(follow(chat, OWNER, next.runId))).at(-1)).toMatchObject({ reason: 'answered' });
    });

    it('a message refused because another instance’s run got there first leaves the settings sent with it unsaved', async () => {
      const id = await conversation();
      // A run this service has not started (another instance's, as far as it knows): only the store knows of it.
      const elsewhere = 'run-of-another-instance';
      await store.addTurnWithRun(OWNER, id, 'Asked on the other instance', elsewhere);
      const sent = chat.send(ACTOR, {
        message: 'And with these settings?',
        conversationId: id,
        settings: { systemMessage: 'Answer in verse.', pauseBeforeTools: true },
      });
      expect(await refusal(sent)).toMatchObject(BUSY);
      expect((await chat.openConversation(ACTOR, id)).settings).toMatchObject({
        systemMessage: '',
        pauseBeforeTools: false,
      });
      await store.finishRun(OWNER, elsewhere, 'aborted');
      // Sent again once that run has ended: answered, and its settings kept.
      const again = await chat.send(ACTOR, {
        message: 'And with these settings?',
        conversationId: id,
        settings: { systemMessage: 'Answer in verse.' },
      });
      await drain(follow(chat, OWNER, again.runId));
      expect((await chat.openConversation(ACTOR, id)).settings.systemMessage).toBe('Answer in verse.');
    });
  });
}

/**
 * Two instances of the app on one PostgreSQL database (a store and a chat service each, as two servers behind a load
 * balancer), the same conversation sent to from each in the same instant, round after round. Before, each instance
 * read "nothing running" and both started a run; the store now decides, under the conversation's row lock.
 */
function twoInstances(url: () => string): void {
  const ROUNDS = 20;
  const instances: { store: ChatStore; chat: ChatService; dir: string }[] = [];
  beforeAll(async () => {
    for (const name of ['a', 'b']) {
      const dir = mkdtempSync(path.join(tmpdir(), `two-instances-${name}-`));
      const store = await openStore(dir, { databaseUrl: url() });
      const agents = () =>
        new FnCallAgent({
          llm: createChatModel({
            model: 'scripted',
            baseURL: server.url,
            apiKey: 'k',
            generateCfg: { max_retries: 0 },
          }),
        });
      instances.push({ store, chat: (await chatContext(store, agents, { DATA_DIR: dir })).chat, dir });
    }
  });
  afterAll(async () => {
    for (const { store, dir } of instances) {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`sends to one conversation from two instances at once: one run starts, the other is refused (${ROUNDS} rounds)`, async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    // Every answer goes on until it is stopped: the other send comes while it runs, however slow the machine.
    server.setScenario({ rules: [{ when: {}, reply: { content: 'And on. ', endless: 'text', delayMs: 20 } }] });
    const answered = async (chat: ChatService, runId: string) => {
      await chat.stop(ACTOR, runId);
      expect((await drain(follow(chat, OWNER, runId))).at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
    };
    const first = await a.chat.send(ACTOR, { message: 'Hello puffins', settings: { tools: [] } });
    await answered(a.chat, first.runId);
    const id = first.conversationId;
    let expected = ['Hello puffins'];
    for (let round = 0; round < ROUNDS; round++) {
      // Odd rounds: B regenerates the first answer (which drops the later turns) while A sends.
      const regenerate = round % 2 === 1;
      const sent = await Promise.allSettled([
        a.chat.send(ACTOR, { message: `A${round}`, conversationId: id }),
        regenerate
          ? b.chat.regenerate(ACTOR, first.turnId)
          : b.chat.send(ACTOR, { message: `B${round}`, conversationId: id }),
      ]);
      const won = sent.findIndex((s) => s.status === 'fulfilled');
      expect(sent.map((s) => s.status).sort(), `round ${round}`).toEqual(['fulfilled', 'rejected']);
      expect((sent[1 - won] as PromiseRejectedResult).reason).toMatchObject(BUSY);
      await answered([a, b][won]!.chat, (sent[won] as PromiseFulfilledResult<{ runId: string }>).value.runId);
      expected = won === 0 ? [...expected, `A${round}`] : regenerate ? ['Hello puffins'] : [...expected, `B${round}`];
      // Every message has its run (none stored without one), and the refused one is not there.
      const turns = (await b.chat.openConversation(ACTOR, id)).turns;
      expect(
        turns.map((t) => t.turn.content),
        `round ${round}`,
      ).toEqual(expected);
      expect(turns.every((t) => t.runStatus === 'aborted')).toBe(true);
    }
  }, 120_000);
}
