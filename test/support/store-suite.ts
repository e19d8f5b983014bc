// The chat store's test suite, run against every implementation (lib/store/sqlite.test.ts, lib/store/pg-store.test.ts):
// one suite, so the stores cannot drift apart. A harness opens a fresh, empty store per test, and can open the same
// database again (a restart, or another instance).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../lib/protocol/events';
import { defaultSettings } from '../../lib/store/settings';
import type { ChatStore, ConversationSettings, StoredTurn } from '../../lib/store/types';

export interface StoreHarness {
  /** The test's store, on a fresh, empty database. */
  open(): Promise<ChatStore>;
  /** Another store on the same database (after a restart, or another instance's). */
  reopen(opts?: { defaults?: ConversationSettings }): Promise<ChatStore>;
  /** Rows of run_events for a run, read past the store. */
  countEventRows(runId: string): Promise<number>;
  /** Closes every store it opened and removes the database. */
  cleanup(): Promise<void>;
}

const HASH = 'a'.repeat(64);

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
  const turn = await store.addTurn(conversationId, question);
  await store.startRun(turn.id, runId);
  for (const word of answer.split(/(?<= )/)) await store.appendEvent(runId, delta(runId, word));
  await store.finishRun(runId, 'answered');
  return turn;
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
    afterEach(async () => {
      await h.cleanup();
    });

    it('records a whole conversation and reads it back after reopening the store', async () => {
      const store = await open();
      const conversation = await store.createConversation({ title: 'Maths' });
      expect(conversation.title).toBe('Maths');
      expect(conversation.createdAt).toBe(conversation.updatedAt);

      const turn = await store.addTurn(conversation.id, 'What is 2+2?');
      expect(turn).toMatchObject({ conversationId: conversation.id, seq: 0, content: 'What is 2+2?' });
      const run = await store.startRun(turn.id, 'run-1');
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
      for (const event of events) await store.appendEvent('run-1', event);
      await store.finishRun('run-1', 'answered');
      await store.close();

      const again = await h.reopen();
      expect((await again.getConversation(conversation.id))?.title).toBe('Maths');
      expect(await again.getTurn(turn.id)).toEqual(turn);
      const finished = await again.getRun('run-1');
      expect(finished?.status).toBe('answered');
      expect(finished?.endedAt).toBeGreaterThanOrEqual(run.startedAt);
      expect(finished?.error).toBeUndefined();
      expect(await again.getRunEvents('run-1')).toEqual(events);

      const [record, ...rest] = await again.listTurns(conversation.id);
      expect(rest).toEqual([]);
      expect(record?.turn).toEqual(turn);
      expect(record?.run?.id).toBe('run-1');
      expect(record?.events).toEqual(events);
      expect(record?.runCount).toBe(1);
    });

    it('keeps error details of a failed run', async () => {
      const store = await open();
      const turn = await store.addTurn((await store.createConversation()).id, 'hi');
      await store.startRun(turn.id, 'r');
      await store.finishRun('r', 'error', { name: 'ModelServiceError', message: 'boom', status: 503 });
      expect(await store.getRun('r')).toMatchObject({
        status: 'error',
        error: { name: 'ModelServiceError', message: 'boom', status: 503 },
      });
    });

    it('keeps content items of a user message', async () => {
      const store = await open();
      const content = [{ text: 'Summarise this' }, { file: '/uploads/report.pdf' }];
      const turn = await store.addTurn((await store.createConversation()).id, content);
      expect((await store.getTurn(turn.id))?.content).toEqual(content);
    });

    describe('ordering', () => {
      it('lists conversations newest first and moves one to the top when a turn is added or a run starts', async () => {
        const store = await open();
        const a = await store.createConversation({ title: 'a' });
        const b = await store.createConversation({ title: 'b' });
        const c = await store.createConversation({ title: 'c' });
        expect(ids(await store.listConversations())).toEqual([c.id, b.id, a.id]);

        const turn = await store.addTurn(a.id, 'hello');
        expect(ids(await store.listConversations())).toEqual([a.id, c.id, b.id]);
        expect((await store.getConversation(a.id))!.updatedAt).toBeGreaterThan(a.updatedAt);

        await store.addTurn(b.id, 'hello');
        await store.startRun(turn.id, 'regen');
        expect(ids(await store.listConversations())).toEqual([a.id, b.id, c.id]);
      });

      it('numbers turns 0, 1, 2 and lists them in that order', async () => {
        const store = await open();
        const conversation = await store.createConversation();
        const turns: StoredTurn[] = [];
        for (const text of ['one', 'two', 'three']) turns.push(await store.addTurn(conversation.id, text));
        expect(turns.map((t) => t.seq)).toEqual([0, 1, 2]);
        expect((await store.listTurns(conversation.id)).map((r) => r.turn.content)).toEqual(['one', 'two', 'three']);
        expect((await store.listTurns(conversation.id)).map((r) => r.run)).toEqual([undefined, undefined, undefined]);
      });
    });

    describe('search', () => {
      async function seeded() {
        const store = await open();
        const weather = await store.createConversation({ title: 'Weather in Paris' });
        await answeredTurn(store, weather.id, 'Will it rain tomorrow?', 'Expect Light Drizzle in the morning.', 'w1');
        const maths = await store.createConversation({ title: 'Maths homework' });
        await answeredTurn(store, maths.id, 'Integrate x squared', 'The integral is x^3/3 plus a constant.', 'm1');
        const chinese = await store.createConversation({ title: '旅行计划' });
        await answeredTurn(store, chinese.id, '北京明天的天气怎么样？', '明天北京晴，气温二十五度。', 'c1');
        return { store, weather, maths, chinese };
      }

      it('matches the title, the user text and the answer text', async () => {
        const { store, weather, maths } = await seeded();
        expect(ids(await store.listConversations('paris'))).toEqual([weather.id]);
        expect(ids(await store.listConversations('tomorrow'))).toEqual([weather.id]);
        expect(ids(await store.listConversations('constant'))).toEqual([maths.id]);
        expect(ids(await store.listConversations('nothing-like-this'))).toEqual([]);
      });

      it('finds answer text only once the run has finished', async () => {
        const store = await open();
        const conversation = await store.createConversation();
        const turn = await store.addTurn(conversation.id, 'question');
        await store.startRun(turn.id, 'r');
        await store.appendEvent('r', delta('r', 'zebra crossing'));
        expect(await store.listConversations('zebra')).toEqual([]);
        await store.finishRun('r', 'aborted');
        expect(ids(await store.listConversations('zebra'))).toEqual([conversation.id]);
      });

      it('matches text that spans two streamed deltas', async () => {
        const store = await open();
        const conversation = await store.createConversation();
        const turn = await store.addTurn(conversation.id, 'q');
        await store.startRun(turn.id, 'r');
        await store.appendEvent('r', delta('r', 'hippo'));
        await store.appendEvent('r', delta('r', 'potamus'));
        await store.finishRun('r', 'answered');
        expect(ids(await store.listConversations('hippopotamus'))).toEqual([conversation.id]);
      });

      it('requires every word, wherever each one is', async () => {
        const { store, weather } = await seeded();
        // 'weather' is in the title, 'rain' in the question, 'drizzle' in the answer
        expect(ids(await store.listConversations('weather rain drizzle'))).toEqual([weather.id]);
        expect(ids(await store.listConversations('  weather \t integral '))).toEqual([]);
      });

      it('ignores case in the query and in the stored text', async () => {
        const { store, weather } = await seeded();
        expect(ids(await store.listConversations('LIGHT drizzle'))).toEqual([weather.id]);
        expect(ids(await store.listConversations('pArIs'))).toEqual([weather.id]);
      });

      it('finds Chinese words, including two-character ones, in title, question and answer', async () => {
        const { store, chinese } = await seeded();
        expect(ids(await store.listConversations('旅行'))).toEqual([chinese.id]);
        expect(ids(await store.listConversations('天气'))).toEqual([chinese.id]);
        expect(ids(await store.listConversations('气温 晴'))).toEqual([chinese.id]);
        expect(ids(await store.listConversations('上海'))).toEqual([]);
      });

      it('searches the text items of a message with files', async () => {
        const store = await open();
        const conversation = await store.createConversation();
        await store.addTurn(conversation.id, [{ text: 'Summarise the quarterly report' }, { file: '/x/y.pdf' }]);
        expect(ids(await store.listConversations('quarterly'))).toEqual([conversation.id]);
      });

      it('treats % and _ in the query as plain characters', async () => {
        const store = await open();
        const hit = await store.createConversation({ title: 'growth of 50% in q_3' });
        await store.createConversation({ title: 'growth of 500 in qx3' });
        expect(ids(await store.listConversations('50% q_3'))).toEqual([hit.id]);
      });

      it('returns matches newest first', async () => {
        const store = await open();
        const older = await store.createConversation({ title: 'apple pie' });
        const newer = await store.createConversation({ title: 'apple tart' });
        await store.createConversation({ title: 'pear' });
        expect(ids(await store.listConversations('apple'))).toEqual([newer.id, older.id]);
        await store.addTurn(older.id, 'more');
        expect(ids(await store.listConversations('apple'))).toEqual([older.id, newer.id]);
      });

      it('follows renames and deleted turns', async () => {
        const { store, weather } = await seeded();
        await store.renameConversation(weather.id, 'Forecast for Lyon');
        expect((await store.getConversation(weather.id))?.title).toBe('Forecast for Lyon');
        expect(await store.listConversations('paris')).toEqual([]);
        expect(ids(await store.listConversations('lyon'))).toEqual([weather.id]);

        await store.deleteTurnsFrom(weather.id, 0);
        expect(await store.listConversations('tomorrow')).toEqual([]);
        expect(await store.listConversations('drizzle')).toEqual([]);
        expect(ids(await store.listConversations('lyon'))).toEqual([weather.id]);
      });
    });

    it('uses "New chat" for a missing or blank title', async () => {
      const store = await open();
      expect((await store.createConversation()).title).toBe('New chat');
      const c = await store.createConversation({ title: '   ' });
      expect(c.title).toBe('New chat');
      await store.renameConversation(c.id, '  Trip  ');
      expect((await store.getConversation(c.id))?.title).toBe('Trip');
    });

    it('deletes a conversation with its turns, runs and events', async () => {
      const store = await open();
      const doomed = await store.createConversation({ title: 'doomed' });
      const kept = await store.createConversation({ title: 'kept' });
      const doomedTurn = await answeredTurn(store, doomed.id, 'q', 'a b c', 'doomed-run');
      await answeredTurn(store, kept.id, 'q', 'x y', 'kept-run');

      await store.deleteConversation(doomed.id);
      expect(await store.getConversation(doomed.id)).toBeUndefined();
      expect(await store.getTurn(doomedTurn.id)).toBeUndefined();
      expect(await store.getRun('doomed-run')).toBeUndefined();
      expect(ids(await store.listConversations())).toEqual([kept.id]);
      expect(await store.getRunEvents('kept-run')).toHaveLength(2);

      expect(await h.countEventRows('doomed-run')).toBe(0);
      expect(await h.countEventRows('kept-run')).toBe(2);
    });

    it('deleteTurnsFrom removes that turn and every later one with their runs, and numbering continues', async () => {
      const store = await open();
      const conversation = await store.createConversation();
      const turns: StoredTurn[] = [];
      for (const [i, q] of ['t0', 't1', 't2', 't3'].entries())
        turns.push(await answeredTurn(store, conversation.id, q, `a${i}`, `run-${i}`));

      await store.deleteTurnsFrom(conversation.id, 2);
      expect((await store.listTurns(conversation.id)).map((r) => r.turn.content)).toEqual(['t0', 't1']);
      expect(await store.getTurn(turns[2]!.id)).toBeUndefined();
      expect(await store.getRun('run-2')).toBeUndefined();
      expect(await store.getRun('run-3')).toBeUndefined();
      expect((await store.getRun('run-1'))?.status).toBe('answered');

      expect((await store.addTurn(conversation.id, 'new')).seq).toBe(2);
      await store.deleteTurnsFrom(conversation.id, 99);
      expect(await store.listTurns(conversation.id)).toHaveLength(3);
    });

    it('shows the latest run of a regenerated turn, with its own events, and counts the runs', async () => {
      const store = await open();
      const conversation = await store.createConversation();
      const turn = await answeredTurn(store, conversation.id, 'Tell me a joke', 'first joke', 'first');
      await store.startRun(turn.id, 'second');
      await store.appendEvent('second', delta('second', 'second joke'));
      await store.finishRun('second', 'answered');

      const [record] = await store.listTurns(conversation.id);
      expect(record?.runCount).toBe(2);
      expect(record?.run?.id).toBe('second');
      expect(record?.events).toEqual([delta('second', 'second joke')]);
      // the older run is still stored
      expect((await store.getRunEvents('first')).map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual([
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
        expect((await (await open()).createConversation()).settings.fncallMode).toBe('native');
        const store = await h.reopen({ defaults: defaultSettings('nous') });
        expect((await store.createConversation()).settings).toEqual({
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
        const c = await store.createConversation({ settings: { agent: 'react', generateCfg: { temperature: 0.2 } } });
        expect(c.settings).toEqual({
          agent: 'react',
          tools: ['calculator', 'current_time'],
          fncallMode: 'native',
          generateCfg: { temperature: 0.2 },
          systemMessage: '',
          pauseBeforeTools: false,
        });

        const updated = await store.updateSettings(c.id, {
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
        expect((await (await h.reopen()).getConversation(c.id))?.settings).toEqual(expected);
      });
    });

    it('names the unknown id in every error', async () => {
      const store = await open();
      const conversation = await store.createConversation();
      const turn = await store.addTurn(conversation.id, 'q');
      await store.startRun(turn.id, 'taken');

      expect(await store.getConversation('nope')).toBeUndefined();
      expect(await store.getTurn('nope')).toBeUndefined();
      expect(await store.getRun('nope')).toBeUndefined();
      await expect(store.renameConversation('conv-x', 't')).rejects.toThrow(/conv-x/);
      await expect(store.updateSettings('conv-x', {})).rejects.toThrow(/conv-x/);
      await expect(store.deleteConversation('conv-x')).rejects.toThrow(/conv-x/);
      await expect(store.addTurn('conv-x', 'q')).rejects.toThrow(/conv-x/);
      await expect(store.deleteTurnsFrom('conv-x', 0)).rejects.toThrow(/conv-x/);
      await expect(store.listTurns('conv-x')).rejects.toThrow(/conv-x/);
      await expect(store.startRun('turn-x', 'r')).rejects.toThrow(/turn-x/);
      await expect(store.startRun(turn.id, 'taken')).rejects.toThrow(/taken.*already exists/);
      await expect(store.appendEvent('run-x', delta('run-x', 'a'))).rejects.toThrow(/run-x/);
      await expect(store.finishRun('run-x', 'answered')).rejects.toThrow(/run-x/);
      await expect(store.getRunEvents('run-x')).rejects.toThrow(/run-x/);
      // nothing was written by the failed calls
      expect(await store.listConversations()).toHaveLength(1);
      expect((await store.listTurns(conversation.id))[0]?.runCount).toBe(1);
    });

    it('marks the runs a closed store left running as interrupted, with an end time, counting them once', async () => {
      const store = await open();
      const conversation = await store.createConversation();
      const t0 = await answeredTurn(store, conversation.id, 'q0', 'done', 'finished');
      const t1 = await store.addTurn(conversation.id, 'q1');
      await store.startRun(t1.id, 'cut-a');
      await store.appendEvent('cut-a', delta('cut-a', 'partial answer'));
      await store.startRun(t0.id, 'cut-b');
      await store.close(); // the process driving them is gone

      const next = await h.reopen();
      expect(await next.markInterruptedRuns()).toBe(2);
      expect(await next.getRun('cut-a')).toMatchObject({ status: 'interrupted', endedAt: expect.any(Number) });
      expect((await next.getRun('cut-b'))?.status).toBe('interrupted');
      expect((await next.getRun('finished'))?.status).toBe('answered');
      expect(await next.getRunEvents('cut-a')).toEqual([delta('cut-a', 'partial answer')]);
      // what the cut-off run had said is searchable like any finished answer
      expect(ids(await next.listConversations('partial'))).toEqual([conversation.id]);
      expect(await next.markInterruptedRuns()).toBe(0);
    });

    it('refuses to append to or finish a run that is no longer running, and keeps its log as it was', async () => {
      const store = await open();
      const turn = await store.addTurn((await store.createConversation()).id, 'q');
      await store.startRun(turn.id, 'over');
      await store.appendEvent('over', delta('over', 'a'));
      await store.finishRun('over', 'aborted');
      await expect(store.appendEvent('over', delta('over', 'late'))).rejects.toThrow(
        'Run "over" is aborted, no longer running: cannot append a text-delta event.',
      );
      await expect(store.finishRun('over', 'answered')).rejects.toThrow(
        'Run "over" is aborted, no longer running: cannot finish it.',
      );
      expect(await store.getRun('over')).toMatchObject({ status: 'aborted' });
      expect(await store.getRunEvents('over')).toEqual([delta('over', 'a')]);
    });

    // Its speed is measured in bench/hot-paths.ts, not asserted here.
    it('keeps every one of 5,000 small text-delta events in order', async () => {
      const store = await open();
      const turn = await store.addTurn((await store.createConversation()).id, 'q');
      await store.startRun(turn.id, 'fast');
      const n = 5000;
      for (let i = 0; i < n; i++) await store.appendEvent('fast', delta('fast', `tok${i} `, i));
      const events = await store.getRunEvents('fast');
      expect(events).toHaveLength(n);
      expect(events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('')).toBe(
        Array.from({ length: n }, (_, i) => `tok${i} `).join(''),
      );
    });

    it('appends a batch of events in order, and all or none of it', async () => {
      const store = await open();
      const turn = await store.addTurn((await store.createConversation()).id, 'q');
      await store.startRun(turn.id, 'batch');
      await store.appendEvents('batch', [delta('batch', 'a'), delta('batch', 'b')]);
      await store.appendEvent('batch', delta('batch', 'c'));
      const unwritable = { ...delta('batch', 'x'), t: 10n } as unknown as AgentEvent; // JSON cannot hold a bigint
      await expect(store.appendEvents('batch', [delta('batch', 'd'), unwritable])).rejects.toThrow(/BigInt/);
      expect((await store.getRunEvents('batch')).map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual([
        'a',
        'b',
        'c',
      ]);
    });

    describe('documents', () => {
      let store: ChatStore;
      beforeEach(async () => {
        store = await open();
      });

      it("records an upload as parsing, then ready with its pages, and lists a conversation's documents in order", async () => {
        const c = await store.createConversation();
        const a = await store.addDocument({ conversationId: c.id, hash: HASH, name: 'report.pdf', size: 1234 });
        expect(a).toMatchObject({ conversationId: c.id, name: 'report.pdf', size: 1234, state: 'parsing' });
        expect(a.ref).toBe(`files/${HASH}/report.pdf`);
        const b = await store.addDocument({ conversationId: c.id, hash: 'b'.repeat(64), name: 'x.txt', size: 3 });
        await store.updateDocument(a.id, { state: 'ready', kind: 'pdf', pages: 12, title: 'Annual report' });
        await store.updateDocument(b.id, { state: 'error', error: 'x.txt is empty (0 bytes).' });
        expect((await store.listDocuments(c.id)).map((d) => [d.name, d.state, d.pages ?? d.error])).toEqual([
          ['report.pdf', 'ready', 12],
          ['x.txt', 'error', 'x.txt is empty (0 bytes).'],
        ]);
        expect(await store.getDocument(a.id)).toMatchObject({ kind: 'pdf', title: 'Annual report' });
        expect(await store.listDocuments((await store.createConversation()).id)).toEqual([]);
      });

      it("keeps an unreadable document's error code, and drops it when the document is read after all", async () => {
        const c = await store.createConversation();
        const d = await store.addDocument({ conversationId: c.id, hash: HASH, name: 'x.pdf', size: 3 });
        await store.updateDocument(d.id, { state: 'error', error: 'x.pdf is encrypted.', errorCode: 'encrypted' });
        expect(await store.getDocument(d.id)).toMatchObject({ error: 'x.pdf is encrypted.', errorCode: 'encrypted' });
        const ready = await store.updateDocument(d.id, { state: 'ready', kind: 'pdf', pages: 1 });
        expect(ready.error).toBeUndefined();
        expect(ready.errorCode).toBeUndefined();
        await store.updateDocument(d.id, { state: 'error', error: 'gone' });
        expect((await store.getDocument(d.id))?.errorCode).toBeUndefined();
      });

      it('removes a record and counts the records sharing the same bytes', async () => {
        const c1 = await store.createConversation();
        const c2 = await store.createConversation();
        const a = await store.addDocument({ conversationId: c1.id, hash: HASH, name: 'a.pdf', size: 1 });
        await store.addDocument({ conversationId: c2.id, hash: HASH, name: 'same-bytes.pdf', size: 1 });
        expect(await store.countDocumentsWithHash(HASH)).toBe(2);
        expect((await store.removeDocument(a.id))?.name).toBe('a.pdf');
        expect(await store.removeDocument(a.id)).toBeUndefined();
        expect(await store.countDocumentsWithHash(HASH)).toBe(1);
      });

      it('refuses a document for an unknown conversation, and drops documents with their conversation', async () => {
        await expect(store.addDocument({ conversationId: 'nope', hash: HASH, name: 'a', size: 1 })).rejects.toThrow(
          'Unknown conversation id "nope".',
        );
        const c = await store.createConversation();
        await store.addDocument({ conversationId: c.id, hash: HASH, name: 'a.pdf', size: 1 });
        await store.deleteConversation(c.id);
        expect(await store.countDocumentsWithHash(HASH)).toBe(0);
        await expect(store.updateDocument('nope', { state: 'error', error: 'x' })).rejects.toThrow(
          'Unknown document id "nope".',
        );
      });
    });
  });
}
