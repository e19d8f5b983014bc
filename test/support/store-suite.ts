// The store's contract: the test suite every store passes, run against SQLite and a real PostgreSQL
// (lib/store/store.test.ts), so the two cannot drift apart. A harness opens a fresh, empty database per test, can open
// the same database again (a restart, or another instance), and looks at it past the store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldEvents } from '../../lib/agent/fold';
import type { AgentEvent } from '../../lib/protocol/events';
import { LOCAL_OWNER_ID, ownerScope } from '../../lib/store/owner';
import { toJson } from '../../lib/store/query';
import { defaultSettings } from '../../lib/protocol/conversation-settings';
import type { ChatStore, StoredTurn } from '../../lib/store/types';
import { describeModelStores } from './store-suite-models';
import { describeOneRunAtATime } from './store-suite-one-run';
import { describeRunSearch } from './store-suite-runs';
import type { StoreHarness } from './store-harness';
import { describeSchema } from './store-suite-schema';
import { describeChunkVectors } from './store-suite-vectors';

export type { StoreHarness } from './store-harness';

const HASH = 'a'.repeat(64);
const OWNER = ownerScope('owner-a');

function delta(runId: string, text: string, t = 0): AgentEvent {
  return { type: 'text-delta', runId, iteration: 1, t, text };
}

function runEnd(runId: string): AgentEvent {
  return {
    type: 'run-end',
    runId,
    iteration: 0,
    t: 5,
    reason: 'answered',
    llmCalls: 1,
    toolCalls: 0,
    usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    durationMs: 5,
  };
}

/** One turn answered by one finished run whose text-deltas spell `answer`. */
async function answeredTurn(store: ChatStore, conversationId: string, question: string, answer: string, runId: string) {
  const { turn } = await store.addTurnWithRun(OWNER, conversationId, question, runId);
  for (const word of answer.split(/(?<= )/)) await store.appendEvents(OWNER, runId, [delta(runId, word)]);
  await store.finishRun(OWNER, runId, 'answered');
  return turn;
}

const A = ownerScope('user-a');
const B = ownerScope('user-b');
const OWNED_DELTA: AgentEvent = { type: 'text-delta', runId: 'run-a', iteration: 1, t: 1, text: 'secret answer' };

/** A's conversation with a finished run, a document, an API key and a model connection. */
async function aliceHas(store: ChatStore) {
  const conversation = await store.createConversation(A, { title: 'Alice secret plans' });
  const { turn } = await store.addTurnWithRun(A, conversation.id, 'the plan', 'run-a');
  await store.appendEvents(A, 'run-a', [OWNED_DELTA]);
  await store.finishRun(A, 'run-a', 'answered');
  const document = await store.addDocument(A, {
    conversationId: conversation.id,
    hash: HASH,
    name: 'plan.pdf',
    size: 3,
  });
  const key = await store.createApiKey(A, { name: 'ci', prefix: 'as_abc', hash: 'f'.repeat(64) });
  const connection = await store.addConnection(A, {
    name: 'Lab',
    baseURL: 'http://127.0.0.1:9/v1',
    apiKeyCipher: 'v1:x',
  });
  return { conversation, turn, document, key, connection };
}

function ids(list: { id: string }[]): string[] {
  return list.map((c) => c.id);
}

export function describeChatStore(name: string, harness: () => Promise<StoreHarness>): void {
  describe(`chat store (${name})`, () => {
    let h: StoreHarness;
    const open = () => h.open();
    beforeEach(async () => {
      h = await harness();
    });
    const countEventRows = async (runId: string) =>
      Number(
        (
          await h
            .dialect()
            .db.selectFrom('run_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('run_id', '=', runId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const keptMessagesJson = async (runId: string) =>
      (
        await h
          .dialect()
          .db.selectFrom('runs')
          .select('messages_json')
          .where('id', '=', runId)
          .executeTakeFirstOrThrow()
      ).messages_json;
    afterEach(async () => {
      await h.cleanup();
    });

    it('records a whole conversation and reads it back after reopening the store', async () => {
      const store = await open();
      const conversation = await store.createConversation(OWNER, { title: 'Maths' });
      expect(conversation.title).toBe('Maths');
      expect(conversation.createdAt).toBe(conversation.updatedAt);

      const { turn, run } = await store.addTurnWithRun(OWNER, conversation.id, 'What is 2+2?', 'run-1');
      expect(turn).toMatchObject({ conversationId: conversation.id, seq: 0, content: 'What is 2+2?' });
      expect(run).toMatchObject({ id: 'run-1', turnId: turn.id, status: 'running' });
      expect(run.endedAt).toBeUndefined();

      const events: AgentEvent[] = [
        {
          type: 'tool-call',
          runId: 'run-1',
          iteration: 1,
          t: 1,
          functionId: 'f1',
          name: 'calculator',
          arguments: '{}',
        },
        delta('run-1', 'It is ', 2),
        delta('run-1', '4.', 3),
        runEnd('run-1'),
      ];
      for (const event of events) await store.appendEvents(OWNER, 'run-1', [event]);
      await store.finishRun(OWNER, 'run-1', 'answered');
      await store.close();

      const again = await h.reopen();
      expect((await again.getConversation(OWNER, conversation.id))?.title).toBe('Maths');
      expect(await again.getTurn(OWNER, turn.id)).toEqual(turn);
      const finished = await again.getRun(OWNER, 'run-1');
      expect(finished?.status).toBe('answered');
      expect(finished?.endedAt).toBeGreaterThanOrEqual(run.startedAt);
      expect(finished?.error).toBeUndefined();
      expect(await again.getRunEvents(OWNER, 'run-1')).toEqual(events);

      const [record, ...rest] = await again.listTurns(OWNER, conversation.id);
      expect(rest).toEqual([]);
      expect(record?.turn).toEqual(turn);
      expect(record?.run?.id).toBe('run-1');
      expect(record?.events).toEqual(events);
      expect(record?.runCount).toBe(1);
    });

    it('keeps error details of a failed run', async () => {
      const store = await open();
      await store.addTurnWithRun(OWNER, (await store.createConversation(OWNER)).id, 'hi', 'r');
      await store.finishRun(OWNER, 'r', 'error', { name: 'ModelServiceError', message: 'boom', status: 503 });
      expect(await store.getRun(OWNER, 'r')).toMatchObject({
        status: 'error',
        error: { name: 'ModelServiceError', message: 'boom', status: 503 },
      });
    });

    it('keeps content items of a user message', async () => {
      const store = await open();
      const content = [{ text: 'Summarise this' }, { file: '/uploads/report.pdf' }];
      const { turn } = await store.addTurnWithRun(OWNER, (await store.createConversation(OWNER)).id, content, 'r');
      expect((await store.getTurn(OWNER, turn.id))?.content).toEqual(content);
    });

    describe('ordering', () => {
      it('lists conversations newest first and moves one to the top when a turn is added or a run starts', async () => {
        const store = await open();
        const a = await store.createConversation(OWNER, { title: 'a' });
        const b = await store.createConversation(OWNER, { title: 'b' });
        const c = await store.createConversation(OWNER, { title: 'c' });
        expect(ids(await store.listConversations(OWNER))).toEqual([c.id, b.id, a.id]);

        const { turn } = await store.addTurnWithRun(OWNER, a.id, 'hello', 'first');
        expect(ids(await store.listConversations(OWNER))).toEqual([a.id, c.id, b.id]);
        expect((await store.getConversation(OWNER, a.id))!.updatedAt).toBeGreaterThan(a.updatedAt);

        await store.addTurnWithRun(OWNER, b.id, 'hello', 'other');
        await store.finishRun(OWNER, 'first', 'answered');
        await store.startRun(OWNER, turn.id, 'regen');
        expect(ids(await store.listConversations(OWNER))).toEqual([a.id, b.id, c.id]);
      });

      it('numbers turns 0, 1, 2 and lists them in that order', async () => {
        const store = await open();
        const conversation = await store.createConversation(OWNER);
        const turns: StoredTurn[] = [];
        for (const text of ['one', 'two', 'three']) {
          turns.push((await store.addTurnWithRun(OWNER, conversation.id, text, text)).turn);
          await store.finishRun(OWNER, text, 'answered');
        }
        expect(turns.map((t) => t.seq)).toEqual([0, 1, 2]);
        expect((await store.listTurns(OWNER, conversation.id)).map((r) => r.turn.content)).toEqual([
          'one',
          'two',
          'three',
        ]);
        expect((await store.listTurns(OWNER, conversation.id)).map((r) => r.run?.id)).toEqual(['one', 'two', 'three']);
      });
    });

    describe('search', () => {
      async function seeded() {
        const store = await open();
        const weather = await store.createConversation(OWNER, { title: 'Weather in Paris' });
        await answeredTurn(store, weather.id, 'Will it rain tomorrow?', 'Expect Light Drizzle in the morning.', 'w1');
        const maths = await store.createConversation(OWNER, { title: 'Maths homework' });
        await answeredTurn(store, maths.id, 'Integrate x squared', 'The integral is x^3/3 plus a constant.', 'm1');
        const chinese = await store.createConversation(OWNER, { title: '旅行计划' });
        await answeredTurn(store, chinese.id, '北京明天的天气怎么样？', '明天北京晴，气温二十五度。', 'c1');
        return { store, weather, maths, chinese };
      }

      it('matches the title, the user text and the answer text', async () => {
        const { store, weather, maths } = await seeded();
        expect(ids(await store.listConversations(OWNER, 'paris'))).toEqual([weather.id]);
        expect(ids(await store.listConversations(OWNER, 'tomorrow'))).toEqual([weather.id]);
        expect(ids(await store.listConversations(OWNER, 'constant'))).toEqual([maths.id]);
        expect(ids(await store.listConversations(OWNER, 'nothing-like-this'))).toEqual([]);
      });

      it('finds answer text only once the run has finished', async () => {
        const store = await open();
        const conversation = await store.createConversation(OWNER);
        await store.addTurnWithRun(OWNER, conversation.id, 'question', 'r');
        await store.appendEvents(OWNER, 'r', [delta('r', 'zebra crossing')]);
        expect(await store.listConversations(OWNER, 'zebra')).toEqual([]);
        await store.finishRun(OWNER, 'r', 'aborted');
        expect(ids(await store.listConversations(OWNER, 'zebra'))).toEqual([conversation.id]);
      });

      it('matches text that spans two streamed deltas', async () => {
        const store = await open();
        const conversation = await store.createConversation(OWNER);
        await store.addTurnWithRun(OWNER, conversation.id, 'q', 'r');
        await store.appendEvents(OWNER, 'r', [delta('r', 'hippo')]);
        await store.appendEvents(OWNER, 'r', [delta('r', 'potamus')]);
        await store.finishRun(OWNER, 'r', 'answered');
        expect(ids(await store.listConversations(OWNER, 'hippopotamus'))).toEqual([conversation.id]);
      });

      it('requires every word, wherever each one is', async () => {
        const { store, weather } = await seeded();
        // 'weather' is in the title, 'rain' in the question, 'drizzle' in the answer
        expect(ids(await store.listConversations(OWNER, 'weather rain drizzle'))).toEqual([weather.id]);
        expect(ids(await store.listConversations(OWNER, '  weather \t integral '))).toEqual([]);
      });

      it('ignores case in the query and in the stored text', async () => {
        const { store, weather } = await seeded();
        expect(ids(await store.listConversations(OWNER, 'LIGHT drizzle'))).toEqual([weather.id]);
        expect(ids(await store.listConversations(OWNER, 'pArIs'))).toEqual([weather.id]);
      });

      it('finds Chinese words, including two-character ones, in title, question and answer', async () => {
        const { store, chinese } = await seeded();
        expect(ids(await store.listConversations(OWNER, '旅行'))).toEqual([chinese.id]);
        expect(ids(await store.listConversations(OWNER, '天气'))).toEqual([chinese.id]);
        expect(ids(await store.listConversations(OWNER, '气温 晴'))).toEqual([chinese.id]);
        expect(ids(await store.listConversations(OWNER, '上海'))).toEqual([]);
      });

      it('searches the text items of a message with files', async () => {
        const store = await open();
        const conversation = await store.createConversation(OWNER);
        const content = [{ text: 'Summarise the quarterly report' }, { file: '/x/y.pdf' }];
        await store.addTurnWithRun(OWNER, conversation.id, content, 'r');
        expect(ids(await store.listConversations(OWNER, 'quarterly'))).toEqual([conversation.id]);
      });

      it('treats % and _ in the query as plain characters', async () => {
        const store = await open();
        const hit = await store.createConversation(OWNER, { title: 'growth of 50% in q_3' });
        await store.createConversation(OWNER, { title: 'growth of 500 in qx3' });
        expect(ids(await store.listConversations(OWNER, '50% q_3'))).toEqual([hit.id]);
      });

      it('returns matches newest first', async () => {
        const store = await open();
        const older = await store.createConversation(OWNER, { title: 'apple pie' });
        const newer = await store.createConversation(OWNER, { title: 'apple tart' });
        await store.createConversation(OWNER, { title: 'pear' });
        expect(ids(await store.listConversations(OWNER, 'apple'))).toEqual([newer.id, older.id]);
        await store.addTurnWithRun(OWNER, older.id, 'more', 'r');
        expect(ids(await store.listConversations(OWNER, 'apple'))).toEqual([older.id, newer.id]);
      });

      it('follows renames and deleted turns', async () => {
        const { store, weather } = await seeded();
        await store.renameConversation(OWNER, weather.id, 'Forecast for Lyon');
        expect((await store.getConversation(OWNER, weather.id))?.title).toBe('Forecast for Lyon');
        expect(await store.listConversations(OWNER, 'paris')).toEqual([]);
        expect(ids(await store.listConversations(OWNER, 'lyon'))).toEqual([weather.id]);

        // An edit of the first message drops it and every later turn.
        await store.addTurnWithRun(OWNER, weather.id, 'And in Lyon?', 'edited', { replacing: 0 });
        expect(await store.listConversations(OWNER, 'tomorrow')).toEqual([]);
        expect(await store.listConversations(OWNER, 'drizzle')).toEqual([]);
        expect(ids(await store.listConversations(OWNER, 'lyon'))).toEqual([weather.id]);
      });
    });

    it('uses "New chat" for a missing or blank title', async () => {
      const store = await open();
      expect((await store.createConversation(OWNER)).title).toBe('New chat');
      const c = await store.createConversation(OWNER, { title: '   ' });
      expect(c.title).toBe('New chat');
      await store.renameConversation(OWNER, c.id, '  Trip  ');
      expect((await store.getConversation(OWNER, c.id))?.title).toBe('Trip');
    });

    it('deletes a conversation with its turns, runs and events', async () => {
      const store = await open();
      const doomed = await store.createConversation(OWNER, { title: 'doomed' });
      const kept = await store.createConversation(OWNER, { title: 'kept' });
      const doomedTurn = await answeredTurn(store, doomed.id, 'q', 'a b c', 'doomed-run');
      await answeredTurn(store, kept.id, 'q', 'x y', 'kept-run');

      await store.deleteConversation(OWNER, doomed.id);
      expect(await store.getConversation(OWNER, doomed.id)).toBeUndefined();
      expect(await store.getTurn(OWNER, doomedTurn.id)).toBeUndefined();
      expect(await store.getRun(OWNER, 'doomed-run')).toBeUndefined();
      expect(ids(await store.listConversations(OWNER))).toEqual([kept.id]);
      expect(await store.getRunEvents(OWNER, 'kept-run')).toHaveLength(2);

      expect(await countEventRows('doomed-run')).toBe(0);
      expect(await countEventRows('kept-run')).toBe(2);
    });

    it('an edit replaces that turn and every later one with their runs, and numbering continues', async () => {
      const store = await open();
      const conversation = await store.createConversation(OWNER);
      const turns: StoredTurn[] = [];
      for (const [i, q] of ['t0', 't1', 't2', 't3'].entries())
        turns.push(await answeredTurn(store, conversation.id, q, `a${i}`, `run-${i}`));

      const edited = await store.addTurnWithRun(OWNER, conversation.id, 'new', 'run-new', { replacing: 2 });
      expect(edited.turn.seq).toBe(2);
      expect((await store.listTurns(OWNER, conversation.id)).map((r) => r.turn.content)).toEqual(['t0', 't1', 'new']);
      expect(await store.getTurn(OWNER, turns[2]!.id)).toBeUndefined();
      expect(await store.getRun(OWNER, 'run-2')).toBeUndefined();
      expect(await store.getRun(OWNER, 'run-3')).toBeUndefined();
      expect((await store.getRun(OWNER, 'run-1'))?.status).toBe('answered');

      // Replacing past the last turn drops nothing.
      await store.finishRun(OWNER, 'run-new', 'answered');
      expect((await store.addTurnWithRun(OWNER, conversation.id, 'more', 'run-more', { replacing: 99 })).turn.seq).toBe(
        3,
      );
      expect(await store.listTurns(OWNER, conversation.id)).toHaveLength(4);
    });

    it('gives the history: each turn with the messages its latest run added, kept when it ended', async () => {
      const store = await open();
      const conversation = await store.createConversation(OWNER);
      const { turn: asked } = await store.addTurnWithRun(OWNER, conversation.id, 'What is 6*7?', 'tools');
      const toolRun: AgentEvent[] = [
        {
          type: 'tool-call',
          runId: 'tools',
          iteration: 1,
          t: 1,
          functionId: 'f1',
          name: 'calc',
          arguments: '{"e":"6*7"}',
        },
        {
          type: 'tool-result',
          runId: 'tools',
          iteration: 1,
          t: 2,
          functionId: 'f1',
          name: 'calc',
          arguments: '{"e":"6*7"}',
          content: '42',
          ok: true,
          durationMs: 1,
        },
        delta('tools', 'It is ', 3),
        delta('tools', '42.', 4),
        runEnd('tools'),
      ];
      await store.appendEvents(OWNER, 'tools', toolRun);
      await store.finishRun(OWNER, 'tools', 'answered');
      const regenerated = await answeredTurn(store, conversation.id, 'A joke', 'first joke', 'joke-1');
      await store.startRun(OWNER, regenerated.id, 'joke-2');
      await store.appendEvents(OWNER, 'joke-2', [delta('joke-2', 'second joke')]);
      await store.finishRun(OWNER, 'joke-2', 'answered');
      const { turn: going } = await store.addTurnWithRun(OWNER, conversation.id, 'Still answering', 'going');
      await store.appendEvents(OWNER, 'going', [delta('going', 'so far')]);
      // A message without a run (one whose start failed, when a message was not stored with its run yet).
      const row = { id: 'unasked', conversation_id: conversation.id, seq: 3, content_json: toJson('Not yet asked') };
      await h
        .dialect()
        .db.insertInto('turns')
        .values({ ...row, search_text: '', created_at: 1 })
        .execute();
      const unanswered = (await store.getTurn(OWNER, 'unasked'))!;

      // Kept as each run ended (before any history is read); nothing is kept for the run still going.
      expect(JSON.parse((await keptMessagesJson('tools'))!)).toEqual(foldEvents(toolRun));
      expect(await keptMessagesJson('going')).toBeNull();

      const history = await store.listHistory(OWNER, conversation.id);
      expect(history.map((h) => h.turn)).toEqual([asked, regenerated, going, unanswered]);
      expect(history[0]!.messages).toEqual(foldEvents(toolRun));
      expect(history[0]!.messages.map((m) => m.role)).toEqual(['assistant', 'function', 'assistant']);
      expect(history[1]!.messages).toEqual(foldEvents([delta('joke-2', 'second joke')]));
      expect(history[1]!.messages[0]?.content).toBe('second joke');
      expect(history[2]!.messages).toEqual(foldEvents([delta('going', 'so far')]));
      expect(history[3]!.messages).toEqual([]);
      expect(await keptMessagesJson('going')).toBeNull();
      // The same as folding what listTurns reads.
      const folded = (await store.listTurns(OWNER, conversation.id)).map((r) => foldEvents(r.events));
      expect(history.map((h) => h.messages)).toEqual(folded);
    });

    it('folds the history of a run that ended before messages were kept, and keeps them from then on', async () => {
      const store = await open();
      const conversation = await store.createConversation(OWNER);
      await answeredTurn(store, conversation.id, 'Old question', 'an old answer', 'old-run');
      await h.dialect().db.updateTable('runs').set({ messages_json: null }).where('id', '=', 'old-run').execute();

      const [turn] = await store.listHistory(OWNER, conversation.id);
      expect(turn?.messages).toEqual(foldEvents(await store.getRunEvents(OWNER, 'old-run')));
      expect(turn?.messages[0]?.content).toBe('an old answer');
      expect(JSON.parse((await keptMessagesJson('old-run'))!)).toEqual(turn?.messages);
    });

    it('shows the latest run of a regenerated turn, with its own events, and counts the runs', async () => {
      const store = await open();
      const conversation = await store.createConversation(OWNER);
      const turn = await answeredTurn(store, conversation.id, 'Tell me a joke', 'first joke', 'first');
      await store.startRun(OWNER, turn.id, 'second');
      await store.appendEvents(OWNER, 'second', [delta('second', 'second joke')]);
      await store.finishRun(OWNER, 'second', 'answered');

      const [record] = await store.listTurns(OWNER, conversation.id);
      expect(record?.runCount).toBe(2);
      expect(record?.run?.id).toBe('second');
      expect(record?.events).toEqual([delta('second', 'second joke')]);
      // the older run is still stored
      expect((await store.getRunEvents(OWNER, 'first')).map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual([
        'first ',
        'joke',
      ]);
    });

    describe('settings', () => {
      const saved = process.env.AGENT_FNCALL_MODE;
      afterEach(() => {
        if (saved === undefined) delete process.env.AGENT_FNCALL_MODE;
        else process.env.AGENT_FNCALL_MODE = saved;
      });

      it('gives a new conversation the defaults it was opened with (the server picks the function-call mode)', async () => {
        expect((await (await open()).createConversation(OWNER)).settings.fncallMode).toBe('native');
        const store = await h.reopen({ defaults: defaultSettings('nous') });
        expect((await store.createConversation(OWNER)).settings).toEqual({
          agent: 'fncall',
          tools: ['calculator', 'current_time'],
          fncallMode: 'nous',
          generateCfg: {},
          systemMessage: '',
          pauseBeforeTools: false,
        });
      });

      it('merges given settings at creation and on update, and round-trips them through the database', async () => {
        delete process.env.AGENT_FNCALL_MODE;
        const store = await open();
        const c = await store.createConversation(OWNER, {
          settings: { agent: 'react', generateCfg: { temperature: 0.2 } },
        });
        expect(c.settings).toEqual({
          agent: 'react',
          tools: ['calculator', 'current_time'],
          fncallMode: 'native',
          generateCfg: { temperature: 0.2 },
          systemMessage: '',
          pauseBeforeTools: false,
        });

        const updated = await store.updateSettings(OWNER, c.id, {
          tools: ['code_interpreter'],
          generateCfg: { top_p: 0.9 },
          systemMessage: 'Be brief.',
          pauseBeforeTools: true,
        });
        const expected = {
          agent: 'react',
          tools: ['code_interpreter'],
          fncallMode: 'native',
          generateCfg: { top_p: 0.9 }, // replaced whole, so a parameter can be removed
          systemMessage: 'Be brief.',
          pauseBeforeTools: true,
        };
        expect(updated.settings).toEqual(expected);
        await store.close();
        expect((await (await h.reopen()).getConversation(OWNER, c.id))?.settings).toEqual(expected);
      });
    });

    it('names the unknown id in every error', async () => {
      const store = await open();
      const conversation = await store.createConversation(OWNER);
      await store.addTurnWithRun(OWNER, conversation.id, 'q', 'taken');

      expect(await store.getConversation(OWNER, 'nope')).toBeUndefined();
      expect(await store.getTurn(OWNER, 'nope')).toBeUndefined();
      expect(await store.getRun(OWNER, 'nope')).toBeUndefined();
      await expect(store.renameConversation(OWNER, 'conv-x', 't')).rejects.toThrow(/conv-x/);
      await expect(store.updateSettings(OWNER, 'conv-x', {})).rejects.toThrow(/conv-x/);
      await expect(store.deleteConversation(OWNER, 'conv-x')).rejects.toThrow(/conv-x/);
      await expect(store.addTurnWithRun(OWNER, 'conv-x', 'q', 'r-x')).rejects.toThrow(/conv-x/);
      await expect(store.addTurnWithRun(OWNER, 'conv-x', 'q', 'r-x', { replacing: 0 })).rejects.toThrow(/conv-x/);
      await expect(store.listTurns(OWNER, 'conv-x')).rejects.toThrow(/conv-x/);
      await expect(store.startRun(OWNER, 'turn-x', 'r')).rejects.toThrow(/turn-x/);
      const other = await store.createConversation(OWNER);
      await expect(store.addTurnWithRun(OWNER, other.id, 'q', 'taken')).rejects.toThrow(/taken.*already exists/);
      await expect(store.appendEvents(OWNER, 'run-x', [delta('run-x', 'a')])).rejects.toThrow(/run-x/);
      await expect(store.finishRun(OWNER, 'run-x', 'answered')).rejects.toThrow(/run-x/);
      await expect(store.getRunEvents(OWNER, 'run-x')).rejects.toThrow(/run-x/);
      // nothing was written by the failed calls
      expect(await store.listConversations(OWNER)).toHaveLength(2);
      expect((await store.listTurns(OWNER, conversation.id))[0]?.runCount).toBe(1);
      expect(await store.listTurns(OWNER, other.id)).toEqual([]);
    });

    it('marks the runs a closed store left running as interrupted, with an end time, counting them once', async () => {
      const store = await open();
      const conversation = await store.createConversation(OWNER);
      await answeredTurn(store, conversation.id, 'q0', 'done', 'finished');
      await store.addTurnWithRun(OWNER, conversation.id, 'q1', 'cut-a');
      await store.appendEvents(OWNER, 'cut-a', [delta('cut-a', 'partial answer')]);
      const elsewhere = await store.createConversation(OWNER);
      await store.addTurnWithRun(OWNER, elsewhere.id, 'q2', 'cut-b');
      await store.close(); // the process driving them is gone

      const next = await h.reopen();
      expect(await next.markInterruptedRuns()).toBe(2);
      expect(await next.getRun(OWNER, 'cut-a')).toMatchObject({ status: 'interrupted', endedAt: expect.any(Number) });
      expect((await next.getRun(OWNER, 'cut-b'))?.status).toBe('interrupted');
      expect((await next.getRun(OWNER, 'finished'))?.status).toBe('answered');
      expect(await next.getRunEvents(OWNER, 'cut-a')).toEqual([delta('cut-a', 'partial answer')]);
      // what the cut-off run had said is searchable like any finished answer
      expect(ids(await next.listConversations(OWNER, 'partial'))).toEqual([conversation.id]);
      expect(await next.markInterruptedRuns()).toBe(0);
    });

    it('refuses to append to or finish a run that is no longer running, and keeps its log as it was', async () => {
      const store = await open();
      await store.addTurnWithRun(OWNER, (await store.createConversation(OWNER)).id, 'q', 'over');
      await store.appendEvents(OWNER, 'over', [delta('over', 'a')]);
      await store.finishRun(OWNER, 'over', 'aborted');
      await expect(store.appendEvents(OWNER, 'over', [delta('over', 'late')])).rejects.toThrow(
        'Run "over" is aborted, no longer running: cannot append a text-delta event.',
      );
      await expect(store.finishRun(OWNER, 'over', 'answered')).rejects.toThrow(
        'Run "over" is aborted, no longer running: cannot finish it.',
      );
      expect(await store.getRun(OWNER, 'over')).toMatchObject({ status: 'aborted' });
      expect(await store.getRunEvents(OWNER, 'over')).toEqual([delta('over', 'a')]);
    });

    // Its speed is measured in bench/hot-paths.ts, not asserted here.
    it('keeps every one of 5,000 small text-delta events in order', async () => {
      const store = await open();
      await store.addTurnWithRun(OWNER, (await store.createConversation(OWNER)).id, 'q', 'fast');
      const n = 5000;
      for (let i = 0; i < n; i++) await store.appendEvents(OWNER, 'fast', [delta('fast', `tok${i} `, i)]);
      const events = await store.getRunEvents(OWNER, 'fast');
      expect(events).toHaveLength(n);
      expect(events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('')).toBe(
        Array.from({ length: n }, (_, i) => `tok${i} `).join(''),
      );
    });

    it('appends a batch of events in order, and all or none of it', async () => {
      const store = await open();
      await store.addTurnWithRun(OWNER, (await store.createConversation(OWNER)).id, 'q', 'batch');
      // Each append says how many bytes it stored (what RUN_BYTES_PER_DAY counts): the events' JSON, in UTF-8.
      const ab = [delta('batch', 'a'), delta('batch', 'b')];
      expect(await store.appendEvents(OWNER, 'batch', ab)).toBe(
        Buffer.byteLength(ab.map((e) => JSON.stringify(e)).join('')),
      );
      const c = delta('batch', 'c — 海鸥');
      expect(await store.appendEvents(OWNER, 'batch', [c])).toBe(Buffer.byteLength(JSON.stringify(c)));
      expect(await store.appendEvents(OWNER, 'batch', [])).toBe(0);
      const unwritable = { ...delta('batch', 'x'), t: 10n } as unknown as AgentEvent; // JSON cannot hold a bigint
      await expect(store.appendEvents(OWNER, 'batch', [delta('batch', 'd'), unwritable])).rejects.toThrow(/BigInt/);
      expect((await store.getRunEvents(OWNER, 'batch')).map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual([
        'a',
        'b',
        'c — 海鸥',
      ]);
    });

    describe('documents', () => {
      let store: ChatStore;
      beforeEach(async () => {
        store = await open();
      });

      it("records an upload as parsing, then ready with its pages, and lists a conversation's documents in order", async () => {
        const c = await store.createConversation(OWNER);
        const a = await store.addDocument(OWNER, { conversationId: c.id, hash: HASH, name: 'report.pdf', size: 1234 });
        expect(a).toMatchObject({ conversationId: c.id, name: 'report.pdf', size: 1234, state: 'parsing' });
        expect(a.ref).toBe(`files/${HASH}/report.pdf`);
        const b = await store.addDocument(OWNER, {
          conversationId: c.id,
          hash: 'b'.repeat(64),
          name: 'x.txt',
          size: 3,
        });
        await store.updateDocument(OWNER, a.id, { state: 'ready', kind: 'pdf', pages: 12, title: 'Annual report' });
        await store.updateDocument(OWNER, b.id, { state: 'error', error: 'x.txt is empty (0 bytes).' });
        expect((await store.listDocuments(OWNER, c.id)).map((d) => [d.name, d.state, d.pages ?? d.error])).toEqual([
          ['report.pdf', 'ready', 12],
          ['x.txt', 'error', 'x.txt is empty (0 bytes).'],
        ]);
        expect(await store.getDocument(OWNER, a.id)).toMatchObject({ kind: 'pdf', title: 'Annual report' });
        expect(await store.listDocuments(OWNER, (await store.createConversation(OWNER)).id)).toEqual([]);
      });

      it("keeps an unreadable document's error code, and drops it when the document is read after all", async () => {
        const c = await store.createConversation(OWNER);
        const d = await store.addDocument(OWNER, { conversationId: c.id, hash: HASH, name: 'x.pdf', size: 3 });
        await store.updateDocument(OWNER, d.id, {
          state: 'error',
          error: 'x.pdf is encrypted.',
          errorCode: 'encrypted',
        });
        expect(await store.getDocument(OWNER, d.id)).toMatchObject({
          error: 'x.pdf is encrypted.',
          errorCode: 'encrypted',
        });
        const ready = await store.updateDocument(OWNER, d.id, { state: 'ready', kind: 'pdf', pages: 1 });
        expect(ready.error).toBeUndefined();
        expect(ready.errorCode).toBeUndefined();
        await store.updateDocument(OWNER, d.id, { state: 'error', error: 'gone' });
        expect((await store.getDocument(OWNER, d.id))?.errorCode).toBeUndefined();
      });

      it('removes a record and counts the records sharing the same bytes', async () => {
        const c1 = await store.createConversation(OWNER);
        const c2 = await store.createConversation(OWNER);
        const a = await store.addDocument(OWNER, { conversationId: c1.id, hash: HASH, name: 'a.pdf', size: 1 });
        await store.addDocument(OWNER, { conversationId: c2.id, hash: HASH, name: 'same-bytes.pdf', size: 1 });
        expect(await store.countDocumentsWithHash(HASH)).toBe(2);
        expect((await store.removeDocument(OWNER, a.id))?.name).toBe('a.pdf');
        expect(await store.removeDocument(OWNER, a.id)).toBeUndefined();
        expect(await store.countDocumentsWithHash(HASH)).toBe(1);
      });

      it('refuses a document for an unknown conversation, and drops documents with their conversation', async () => {
        await expect(
          store.addDocument(OWNER, { conversationId: 'nope', hash: HASH, name: 'a', size: 1 }),
        ).rejects.toThrow('Unknown conversation id "nope".');
        const c = await store.createConversation(OWNER);
        await store.addDocument(OWNER, { conversationId: c.id, hash: HASH, name: 'a.pdf', size: 1 });
        await store.deleteConversation(OWNER, c.id);
        expect(await store.countDocumentsWithHash(HASH)).toBe(0);
        await expect(store.updateDocument(OWNER, 'nope', { state: 'error', error: 'x' })).rejects.toThrow(
          'Unknown document id "nope".',
        );
      });
    });

    // Ownership: every method that takes an id or lists answers for its owner only, so B reads A's objects as
    // unknown, whatever the id; what the local owner had goes whole to the first admin.
    describe('ownership', () => {
      it('answers B about none of A’s objects: each read is unknown, each change refused, each list empty', async () => {
        const store = await open();
        const { conversation, turn, document, key, connection } = await aliceHas(store);

        expect(await store.getConversation(B, conversation.id)).toBeUndefined();
        expect(await store.listConversations(B)).toEqual([]);
        expect(await store.listConversations(B, 'secret')).toEqual([]);
        expect(await store.getTurn(B, turn.id)).toBeUndefined();
        expect(await store.getRun(B, 'run-a')).toBeUndefined();
        expect(await store.listRuns(B, turn.id)).toEqual([]);
        expect(await store.getDocument(B, document.id)).toBeUndefined();
        expect(await store.listDocuments(B, conversation.id)).toEqual([]);
        expect(await store.ownsUpload(B, HASH)).toBe(false);
        expect(await store.listApiKeys(B)).toEqual([]);
        expect(await store.listConnections(B)).toEqual([]);
        expect(await store.getConnection(B, connection.id)).toBeUndefined();

        const unknown = /Unknown (conversation|turn|run|document) id/;
        await expect(store.listTurns(B, conversation.id)).rejects.toThrow(unknown);
        await expect(store.listHistory(B, conversation.id)).rejects.toThrow(unknown);
        await expect(store.getRunEvents(B, 'run-a')).rejects.toThrow(unknown);
        await expect(store.renameConversation(B, conversation.id, 'mine now')).rejects.toThrow(unknown);
        await expect(store.updateSettings(B, conversation.id, { systemMessage: 'x' })).rejects.toThrow(unknown);
        await expect(store.addTurnWithRun(B, conversation.id, 'injected', 'run-b')).rejects.toThrow(unknown);
        await expect(store.addTurnWithRun(B, conversation.id, 'injected', 'run-b', { replacing: 0 })).rejects.toThrow(
          unknown,
        );
        await expect(store.startRun(B, turn.id, 'run-b', { dropLater: true })).rejects.toThrow(unknown);
        await expect(store.startRun(B, turn.id, 'run-b')).rejects.toThrow(unknown);
        await expect(store.appendEvents(B, 'run-a', [OWNED_DELTA])).rejects.toThrow(unknown);
        await expect(store.finishRun(B, 'run-a', 'error')).rejects.toThrow(unknown);
        await expect(
          store.addDocument(B, { conversationId: conversation.id, hash: HASH, name: 'x', size: 1 }),
        ).rejects.toThrow(unknown);
        await expect(store.updateDocument(B, document.id, { state: 'error', error: 'x' })).rejects.toThrow(unknown);
        expect(await store.removeDocument(B, document.id)).toBeUndefined();
        expect(await store.revokeApiKey(B, key.id)).toBe(false);
        await expect(store.updateConnection(B, connection.id, { name: 'mine' })).rejects.toThrow(
          /Unknown connection id/,
        );
        expect(await store.removeConnection(B, connection.id)).toBe(false);
        await expect(store.deleteConversation(B, conversation.id)).rejects.toThrow(unknown);

        // Nothing of A's changed.
        expect((await store.getConversation(A, conversation.id))?.title).toBe('Alice secret plans');
        expect(await store.getRunEvents(A, 'run-a')).toEqual([OWNED_DELTA]);
        expect((await store.listTurns(A, conversation.id)).map((t) => t.turn.content)).toEqual(['the plan']);
        expect((await store.getDocument(A, document.id))?.name).toBe('plan.pdf');
        expect((await store.listApiKeys(A))[0]?.revokedAt).toBeUndefined();
        expect(await store.getConnection(A, connection.id)).toEqual(connection);
      });

      it('keeps the same bytes once and owned twice: each owner sees their record, the count covers both', async () => {
        const store = await open();
        const { document } = await aliceHas(store);
        const mine = await store.createConversation(B);
        const theirs = await store.addDocument(B, { conversationId: mine.id, hash: HASH, name: 'same.pdf', size: 3 });
        expect(await store.ownsUpload(B, HASH)).toBe(true);
        expect(await store.countDocumentsWithHash(HASH)).toBe(2);
        await store.removeDocument(A, document.id);
        expect(await store.ownsUpload(A, HASH)).toBe(false);
        expect(await store.getDocument(B, theirs.id)).toBeDefined();
        expect(await store.countDocumentsWithHash(HASH)).toBe(1);
      });

      it('gives the first admin what the local owner had, and nothing of anyone else', async () => {
        const store = await open();
        const local = ownerScope(LOCAL_OWNER_ID);
        const old = await store.createConversation(local, { title: 'from before accounts' });
        const { conversation } = await aliceHas(store);
        expect(await store.adoptLocalData(B)).toBe(1);
        expect((await store.listConversations(B)).map((c) => c.id)).toEqual([old.id]);
        expect(await store.listConversations(local)).toEqual([]);
        expect((await store.listConversations(A)).map((c) => c.id)).toEqual([conversation.id]);
        expect(await store.adoptLocalData(B)).toBe(0);
      });

      it('finds an API key by its hash only, and a revoked key says so; invites are used once', async () => {
        const store = await open();
        const { key } = await aliceHas(store);
        expect((await store.apiKeyByHash('f'.repeat(64)))?.ownerId).toBe('user-a');
        expect(await store.apiKeyByHash('e'.repeat(64))).toBeUndefined();
        expect(await store.revokeApiKey(A, key.id)).toBe(true);
        expect((await store.apiKeyByHash('f'.repeat(64)))?.revokedAt).toBeGreaterThan(0);

        const now = Date.now();
        await store.createInvite({ hash: 'i1', createdBy: 'user-a', expiresAt: now + 1000 });
        const old = await store.createInvite({ hash: 'i2', createdBy: 'user-a', expiresAt: now - 1 });
        expect((await store.listOpenInvites(now)).map((i) => i.expiresAt)).toEqual([now + 1000]);
        expect(await store.claimInvite('i2', 'user-c', now)).toBe(false); // expired
        expect(await store.claimInvite('i1', 'user-c', now)).toBe(true);
        expect(await store.claimInvite('i1', 'user-d', now)).toBe(false); // single use
        expect(await store.openInvite('i1', now)).toBeUndefined();
        expect(await store.revokeInvite(old.id)).toBe(true);
      });

      it('keeps the server’s settings, with defaults: sign-up by invite, no code_interpreter or web tools for users', async () => {
        const store = await open();
        expect(await store.serverSettings()).toEqual({
          signUp: 'invite',
          userTools: { codeInterpreter: false, web: false },
        });
        await store.updateServerSettings({ signUp: 'open', userTools: { codeInterpreter: true, web: false } });
        expect(await store.serverSettings()).toEqual({
          signUp: 'open',
          userTools: { codeInterpreter: true, web: false },
        });
      });

      it('keeps web search as the admin page set it (absent until then; null: back to the environment’s)', async () => {
        const store = await open();
        expect((await store.serverSettings()).webSearch).toBeUndefined();
        const webSearch = { provider: 'tavily' as const, apiKeyCipher: 'v1:sealed' };
        await store.updateServerSettings({ webSearch });
        expect(await store.serverSettings()).toEqual({
          signUp: 'invite',
          userTools: { codeInterpreter: false, web: false },
          webSearch,
        });
        await store.updateServerSettings({ webSearch: null });
        expect((await store.serverSettings()).webSearch).toBeNull();
      });
    });

    describeModelStores(open, () => h.reopen());
    describeChunkVectors(open, () => h.reopen());
    describeRunSearch(open);
    describeOneRunAtATime(open, () => h.reopen());
    describeSchema(() => h, harness);
  });
}
