// Paging and the capped count of the Runs page's query, on a real SQLite file (runs written through the store).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import Database from 'better-sqlite3';
import { COUNT_CAP, SqliteRunIndex } from './run-index';
import { RUNS_PER_PAGE } from './run-query';
import { LOCAL_OWNER_ID, ownerScope } from './owner';
import { openSqliteStore } from './sqlite';
import type { ChatStore } from './types';

const OWNER = ownerScope(LOCAL_OWNER_ID);
const RUNS = COUNT_CAP + 3;
let dir: string;
let store: ChatStore;

function start(runId: string): AgentEvent {
  return {
    type: 'run-start',
    runId,
    iteration: 0,
    t: 0,
    agent: 'assistant',
    kind: 'fncall',
    model: 'm',
    lang: 'en',
    maxLlmCalls: 5,
    tools: [],
  };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-index-'));
  store = openSqliteStore(path.join(dir, 'chat.db'));
  const conversation = await store.createConversation(OWNER, { title: 'many' });
  for (let i = 0; i < RUNS; i++) {
    const turn = await store.addTurn(OWNER, conversation.id, `q${i}`);
    await store.startRun(OWNER, turn.id, `r${i}`);
    await store.appendEvents(OWNER, `r${i}`, [start(`r${i}`)]);
    await store.finishRun(OWNER, `r${i}`, 'answered');
  }
}, 120_000);

afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Runs query', () => {
  it('counts up to its cap, then says there are more, and pages on past it', async () => {
    const first = await store.searchRuns(OWNER, {});
    expect(first).toMatchObject({ total: COUNT_CAP, moreThanTotal: true, page: 1, hasOlder: true });
    expect(first.pageCount).toBeUndefined();
    expect(first.rows.map((r) => r.runId)).toEqual(Array.from({ length: RUNS_PER_PAGE }, (_, i) => `r${RUNS - 1 - i}`));
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
    const db = new Database(path.join(dir, 'chat.db'), { readonly: true });
    try {
      const runByRun = new SqliteRunIndex(db, 5); // more than 5 matching runs: read newest first, each checked
      for (const text of ['q10', 'q1', 'q99']) {
        for (const page of [1, 2]) {
          const expected = await store.searchRuns(OWNER, { text, page });
          expect(runByRun.search(OWNER, { text, page })).toEqual(expected);
        }
        expect(runByRun.figures(OWNER, { text })).toEqual(await store.runFigures(OWNER, { text }));
      }
      expect(runByRun.search(OWNER, { text: 'q10' }).rows.map((r) => r.runId)).toEqual([
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
    } finally {
      db.close();
    }
  });
});
