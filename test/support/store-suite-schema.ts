// The store suite's part for the database itself (called from describeChatStore in store-suite.ts, so it runs against
// every store): the migrations and the schema version checked at open, databases of older versions brought up to
// date with nothing lost (one made by the app before the store was written once: test/fixtures/store-v12), the Runs
// index filled at open, text PostgreSQL cannot hold, and the Runs page's paging past its count's cap.
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isViewer } from '../../lib/auth/viewer';
import { loadConfig } from '../../lib/config';
import { PEER_HEADER } from '../../lib/http/peer';
import type { AgentEvent } from '../../lib/protocol/events';
import { createAppContext } from '../../lib/server/context';
import { openStore } from '../../lib/store';
import { MIGRATIONS, SCHEMA_VERSION } from '../../lib/store/migrations';
import { LOCAL_OWNER_ID, ownerScope } from '../../lib/store/owner';
import { COUNT_CAP, runSearch } from '../../lib/store/run-index';
import { RUNS_PER_PAGE } from '../../lib/store/run-query';
import type { ChatStore } from '../../lib/store/types';
import type { StoreHarness } from './store-harness';

const OWNER = ownerScope('owner-a');
const FIXTURE = path.join(__dirname, '../fixtures/store-v12');

function delta(runId: string, text: string): AgentEvent {
  return { type: 'text-delta', runId, iteration: 1, t: 0, text };
}

async function answered(store: ChatStore, runId: string, answer: string, title?: string) {
  const conversation = await store.createConversation(OWNER, { title });
  const { turn } = await store.addTurnWithRun(OWNER, conversation.id, `question ${runId}`, runId);
  await store.appendEvents(OWNER, runId, [delta(runId, answer)]);
  await store.finishRun(OWNER, runId, 'answered');
  return turn;
}

export function describeSchema(h: () => StoreHarness, harness: () => Promise<StoreHarness>): void {
  describe('schema', () => {
    it('records the schema version it brought a new database to, also when stores open it at once', async () => {
      await Promise.all([h().open(), h().reopen(), h().reopen()]);
      await h().reopen(); // an up-to-date database: nothing to apply
      expect(await h().schemaVersion()).toBe(SCHEMA_VERSION);
    });

    it('makes a new database exactly as the app did before its store was written once (test/fixtures/store-v12)', async () => {
      await (await h().open()).close();
      const before = await harness();
      try {
        await before.restoreFixture();
        // The steps after 12 bring the fixture up to date as they bring any database written then.
        await (await before.open()).close();
        // The accounts library's tables are in the fixture too: only the store's are compared.
        const theirs = new Set(['user', 'session', 'account', 'verification']);
        const fixture = (await before.layout()).filter((line) => !theirs.has(line.split(' ')[1]!.replaceAll('"', '')));
        expect(await h().layout()).toEqual(fixture);
      } finally {
        await before.cleanup();
      }
    });

    it('refuses a database of a newer schema, saying so', async () => {
      await (await h().open()).close();
      await h().setSchemaVersion(SCHEMA_VERSION + 1);
      await expect(h().reopen()).rejects.toThrow(
        `The database is at schema version ${SCHEMA_VERSION + 1}, newer than this app knows (${SCHEMA_VERSION}); upgrade the app.`,
      );
    });

    it('brings a database made before documents existed up to date, keeping its conversations', async () => {
      const d = h().dialect();
      await d.migrate([MIGRATIONS[0]!(d.ddl)], async () => undefined);
      await d.db
        .insertInto('conversations')
        .values({ id: 'c1', title: 'Old chat', created_at: 1, updated_at: 1, settings_json: '{}' } as never)
        .execute();
      const store = await h().open();
      expect(await h().schemaVersion()).toBe(SCHEMA_VERSION);
      // What was written before accounts is the built-in local owner's.
      const local = ownerScope(LOCAL_OWNER_ID);
      expect((await store.getConversation(local, 'c1'))?.title).toBe('Old chat');
      expect(await store.getConversation(OWNER, 'c1')).toBeUndefined();
      const document = await store.addDocument(local, {
        conversationId: 'c1',
        hash: 'a'.repeat(64),
        name: 'a',
        size: 1,
      });
      expect(document.state).toBe('parsing');
    });

    it('answers, on upgrading to version 15, the tool calls a failed run’s kept history left without a result', async () => {
      const store = await h().open();
      const conversation = await store.createConversation(OWNER);
      await store.addTurnWithRun(OWNER, conversation.id, 'Sleep', 'failed');
      await store.appendEvents(OWNER, 'failed', [
        { type: 'tool-call', runId: 'failed', iteration: 1, t: 1, functionId: 'a', name: 'slow', arguments: '{}' },
      ]);
      await store.finishRun(OWNER, 'failed', 'error', { name: 'StoreError', message: 'The disk is full.' });
      await store.close();
      // As a version-14 app kept it: the call, and no result.
      const unpaired = [
        {
          role: 'assistant',
          content: '',
          function_call: { name: 'slow', arguments: '{}' },
          extra: { function_id: 'a' },
        },
      ];
      await h()
        .dialect()
        .db.updateTable('runs')
        .set({ messages_json: JSON.stringify(unpaired) as never })
        .where('id', '=', 'failed')
        .execute();
      await h().setSchemaVersion(14);

      const [turn] = await (await h().reopen()).listHistory(OWNER, conversation.id);
      expect(turn!.messages.at(-1)).toMatchObject({
        role: 'function',
        content: 'The run failed while this call was running; it has no result.',
        extra: { function_id: 'a' },
      });
    });

    it('indexes again, on upgrading to version 12, a run whose summary left out its child runs', async () => {
      const store = await h().open();
      const conversation = await store.createConversation(OWNER);
      await store.addTurnWithRun(OWNER, conversation.id, 'Route this', 'routed');
      const usage = { promptTokens: 100, completionTokens: 50, totalTokens: 150 };
      const helperCall: AgentEvent = {
        type: 'llm-end',
        runId: 'helper',
        iteration: 1,
        t: 2,
        finishReason: 'stop',
        usage,
        durationMs: 1,
      };
      await store.appendEvents(OWNER, 'routed', [
        { type: 'child', runId: 'routed', iteration: 1, t: 2, agent: 'helper', event: helperCall },
      ]);
      await store.finishRun(OWNER, 'routed', 'answered');
      await store.close();
      // As a version-11 database left it: the summary without the helper's call.
      await h()
        .dialect()
        .db.updateTable('run_summaries')
        .set({ llm_calls: 0, prompt_tokens: 0 })
        .where('run_id', '=', 'routed')
        .execute();
      await h().setSchemaVersion(11);

      const [row] = (await (await h().reopen()).searchRuns(OWNER, {})).rows;
      expect(row).toMatchObject({ runId: 'routed', llmCalls: 1, promptTokens: 100, completionTokens: 50 });
    });

    it('indexes for the Runs page, at open, the runs that ended before the index existed, once, also when stores open at once', async () => {
      const store = await h().open();
      for (const id of ['old-1', 'old-2']) await answered(store, id, `answer of ${id}`);
      const conversation = await store.createConversation(OWNER);
      await store.addTurnWithRun(OWNER, conversation.id, 'q', 'still-running');
      // As a database migrated from before the index: ended runs, no summaries.
      await h().dialect().db.deleteFrom('run_summaries').execute();
      expect((await store.searchRuns(OWNER, {})).rows).toEqual([]);
      await Promise.all([h().reopen(), h().reopen()]);
      const rows = await h().dialect().db.selectFrom('run_summaries').select('run_id').orderBy('run_id').execute();
      expect(rows.map((r) => r.run_id)).toEqual(['old-1', 'old-2']);
      expect((await store.searchRuns(OWNER, { text: 'answer of old-2' })).rows.map((r) => r.runId)).toEqual(['old-2']);
    });

    it('keeps text with U+0000 in messages, answers and titles readable and searchable (PostgreSQL’s text cannot hold it)', async () => {
      const store = await h().open();
      const c = await store.createConversation(OWNER, { title: 'nul\u0000title' });
      const { turn } = await store.addTurnWithRun(OWNER, c.id, 'find the nul\u0000byte', 'r');
      await store.appendEvents(OWNER, 'r', [delta('r', 'ans\u0000wer')]);
      await store.finishRun(OWNER, 'r', 'answered');
      expect((await store.getConversation(OWNER, c.id))?.title).toBe('nultitle');
      expect((await store.getTurn(OWNER, turn.id))?.content).toBe('find the nul\u0000byte');
      expect(await store.getRunEvents(OWNER, 'r')).toEqual([delta('r', 'ans\u0000wer')]);
      expect((await store.listConversations(OWNER, 'answer')).map((x) => x.id)).toEqual([c.id]);
      expect((await store.searchRuns(OWNER, { text: 'answer' })).rows.map((x) => x.runId)).toEqual(['r']);
    });

    it('opens a database the app wrote before its store was written once (schema 12), nothing lost', async () => {
      const { dataDir, env, ids } = await restored(h());
      const store = await openStore(dataDir, env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {});
      const ctx = await createAppContext(loadConfig({ DATA_DIR: dataDir, AUTH: 'required', ...env }), store);
      try {
        expect(await h().schemaVersion()).toBe(SCHEMA_VERSION);
        // The accounts library's tables: the admin signs in with the password of then; the API key still works.
        const headers = new Headers({ host: 'localhost:3000', [PEER_HEADER]: '127.0.0.1' });
        const signIn = await ctx.auth.api.signInEmail({
          body: { email: 'admin@example.com', password: 'correct horse battery' },
          headers,
          asResponse: true,
        });
        expect(signIn.status).toBe(200);
        headers.set('cookie', signIn.headers.get('set-cookie')!.split(';')[0]!);
        const viewer = await ctx.viewer(headers);
        if (!isViewer(viewer)) throw new Error(viewer.message);
        expect(viewer).toMatchObject({ userId: ids.admin, admin: true });
        expect(await ctx.apiKeys.check(ids.apiKey)).toMatchObject({ ok: true, key: { ownerId: ids.admin } });
        const me = viewer.owner;

        expect((await store.listConversations(me)).map((c) => c.title).sort()).toEqual([
          'Broken sums',
          'Still going',
          'Tides',
        ]);
        expect((await store.listConversations(me, 'platypus noon')).map((c) => c.id)).toEqual([ids.tides]);
        expect((await store.getConversation(me, ids.tides))?.settings).toMatchObject({
          tools: ['calculator'],
          systemMessage: 'Be brief.',
          generateCfg: { temperature: 0.2 },
        });
        const turns = await store.listTurns(me, ids.tides);
        expect(turns.map((t) => [t.turn.content, t.run?.id, t.runCount, t.events.length])).toEqual([
          ['When is high tide in Brest?', 'tides-1', 1, 9],
          [[{ text: 'And low tide?' }, { file: expect.stringMatching(/^files\/.*\/tides\.pdf$/) }], 'tides-3', 2, 7],
        ]);
        expect((await store.listHistory(me, ids.tides)).map((t) => t.messages.at(-1)?.content)).toEqual([
          'High tide is at noon.',
          'At 18:00, the platypus says.',
        ]);
        expect(await store.getRun(me, 'broken-1')).toMatchObject({
          status: 'error',
          error: { name: 'ModelServiceError', message: 'boom', status: 503 },
        });
        // The run the app left running is interrupted at open, with what it had said.
        expect((await store.getRun(me, 'going-1'))?.status).toBe('interrupted');
        expect((await store.listConversations(me, 'once upon')).map((c) => c.id)).toEqual([ids.going]);
        expect((await store.listDocuments(me, ids.tides)).map((d) => [d.name, d.state, d.pages, d.errorCode])).toEqual([
          ['tides.pdf', 'ready', 3, undefined],
          ['x.pdf', 'error', undefined, 'encrypted'],
        ]);

        const page = await store.searchRuns(me, {});
        expect(page.rows.map((r) => r.runId)).toEqual(['going-1', 'broken-1', 'tides-3', 'tides-2', 'tides-1']);
        expect(page.rows.at(-1)).toMatchObject({
          llmCalls: 1,
          toolCalls: 1,
          promptTokens: 30,
          cost: (30 * 2 + 12 * 8) / 1e6,
        });
        expect((await store.searchRuns(me, { text: 'quokka', outcome: 'error' })).rows.map((r) => r.runId)).toEqual([
          'broken-1',
        ]);
        expect((await store.runFacets(me)).tools).toEqual(['calculator']);

        expect((await store.listOpenInvites(Date.now())).map((i) => i.usedAt)).toEqual([undefined]);
        expect(await store.serverSettings()).toEqual({
          signUp: 'open',
          userTools: { codeInterpreter: true, web: false },
        });
        expect((await store.listConnections(me)).map((c) => [c.name, c.ownerId])).toEqual([
          ['Office', null],
          ['Lab', ids.admin],
        ]);
        expect(await store.getConnection(me, ids.lab)).toMatchObject({
          apiKeyCipher: 'v1:cipher',
          capabilities: { 'qwen-vl': { vision: true } },
          rates: { '*': { contextLength: 32768 } },
        });
        expect(await store.learnedCapabilities(ids.lab)).toEqual({ qwen: { tools: false } });
        expect(await store.learnedCapabilities('env')).toEqual({ llama: { vision: false } });
        expect((await store.listAgents(me)).map((a) => [a.name, a.members.length])).toEqual([
          ['helper', 0],
          ['Librarian', 1],
        ]);
        const hash = (await store.listDocuments(me, ids.tides))[0]!.hash;
        expect(await store.countDocumentsWithHash(hash)).toBe(2); // the upload and the Librarian's

        // And it goes on: a new turn, run and search.
        const { turn: next } = await store.addTurnWithRun(me, ids.tides, 'And tomorrow?', 'tides-4');
        expect(next.seq).toBe(2);
        await store.appendEvents(me, 'tides-4', [delta('tides-4', 'Tomorrow at one, wombat.')]);
        await store.finishRun(me, 'tides-4', 'answered');
        expect((await store.searchRuns(me, { text: 'wombat' })).rows.map((r) => r.runId)).toEqual(['tides-4']);
      } finally {
        await store.close();
      }
    });

    // Paging and the capped count over more runs than the cap, written through the store (a database of its own).
    describe('the Runs query past its count’s cap', () => {
      const RUNS = COUNT_CAP + 3;
      let own: StoreHarness;
      let store: ChatStore;
      beforeAll(async () => {
        own = await harness();
        store = await own.open();
        const conversation = await store.createConversation(OWNER, { title: 'many' });
        for (let i = 0; i < RUNS; i++) {
          await store.addTurnWithRun(OWNER, conversation.id, `q${i}`, `r${i}`);
          await store.appendEvents(OWNER, `r${i}`, [
            {
              type: 'run-start',
              runId: `r${i}`,
              iteration: 0,
              t: 0,
              agent: 'assistant',
              kind: 'fncall',
              model: 'm',
              lang: 'en',
              maxLlmCalls: 5,
              tools: [],
            },
          ]);
          await store.finishRun(OWNER, `r${i}`, 'answered');
        }
      }, 300_000);
      afterAll(() => own.cleanup());

      it('counts up to its cap, then says there are more, and pages on past it', async () => {
        const first = await store.searchRuns(OWNER, {});
        expect(first).toMatchObject({ total: COUNT_CAP, moreThanTotal: true, page: 1, hasOlder: true });
        expect(first.pageCount).toBeUndefined();
        expect(first.rows.map((r) => r.runId)).toEqual(
          Array.from({ length: RUNS_PER_PAGE }, (_, i) => `r${RUNS - 1 - i}`),
        );
        const last = Math.ceil(RUNS / RUNS_PER_PAGE);
        const end = await store.searchRuns(OWNER, { page: last });
        expect(end.hasOlder).toBe(false);
        expect(end.rows.map((r) => r.runId)).toEqual(
          Array.from(
            { length: RUNS - (last - 1) * RUNS_PER_PAGE },
            (_, i) => `r${RUNS - 1 - (last - 1) * RUNS_PER_PAGE - i}`,
          ),
        );
      });

      it('counts exactly below the cap, with the number of pages', async () => {
        const few = await store.searchRuns(OWNER, { text: 'q100' }); // q100, q1000..q1002
        expect(few).toMatchObject({ total: 4, page: 1, pageCount: 1, hasOlder: false });
        expect(few.moreThanTotal).toBeUndefined();
      });

      it('answers the same when a large set of matching runs is checked run by run instead of driving the query', async () => {
        const runByRun = runSearch(own.dialect(), 5); // more than 5 matching runs: read newest first, each checked
        for (const text of ['q10', 'q1', 'q99']) {
          for (const page of [1, 2])
            expect(await runByRun.searchRuns(OWNER, { text, page })).toEqual(
              await store.searchRuns(OWNER, { text, page }),
            );
          expect(await runByRun.runFigures(OWNER, { text })).toEqual(await store.runFigures(OWNER, { text }));
        }
        expect((await runByRun.searchRuns(OWNER, { text: 'q10' })).rows.map((r) => r.runId)).toEqual([
          'r1002',
          'r1001',
          'r1000',
          'r109',
          'r108',
          'r107',
          'r106',
          'r105',
          'r104',
          'r103',
          'r102',
          'r101',
          'r100',
          'r10',
        ]);
      });
    });
  });
}

/** The fixture in the harness's database, and the ids its writer noted for that database. */
async function restored(h: StoreHarness) {
  const { dataDir, env } = await h.restoreFixture();
  const ids = JSON.parse(readFileSync(path.join(FIXTURE, 'fixture.json'), 'utf8')) as Record<
    'sqlite' | 'postgres',
    Record<'tides' | 'going' | 'lab' | 'admin' | 'apiKey', string>
  >;
  return { dataDir, env, ids: env.DATABASE_URL ? ids.postgres : ids.sqlite };
}

/** For the harnesses (lib/store/store.test.ts): the fixture's SQLite file and PostgreSQL dump. */
export const STORE_FIXTURE = {
  copySqlite: (to: string) => copyFileSync(path.join(FIXTURE, 'agent-studio.db'), to),
  postgresDump: () => readFileSync(path.join(FIXTURE, 'postgres.sql'), 'utf8'),
};
