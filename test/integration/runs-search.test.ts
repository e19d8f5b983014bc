// The Runs page's queries over a real SQLite file, on runs made by the chat service against the scripted model
// server over HTTP (two models; successful and failed tool calls), and the back-fill of runs written before the
// index existed. Another user's runs never reach the owner's list, figures, facets or search.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FnCallAgent } from '../../lib/agent';
import { everyToolActor } from '../../lib/chat/actor';
import type { ChatService } from '../../lib/chat/service';
import { createChatModel } from '../../lib/llm';
import { ownerScope, type OwnerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { chatContext, drain, follow } from '../support/chat';

// The built-in local owner (what exists before the first admin takes it over), and a second user.
const OWNER = ownerScope('local');
const OTHER = ownerScope('user-b');

/** The nearest-rank percentile of ascending values, counted here as the figures should. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

let dir: string;
let server: ModelServer;
let store: ChatStore;
let service: ChatService;
let model = 'model-a';

interface Made {
  runId: string;
  model: string;
  calculatorFailed: boolean;
}
const made: Made[] = [];
/** The other user's runs (not in `made`). */
const others: Made[] = [];

/** One run: the model calls the calculator with each expression in turn (a bad one fails), then answers. */
async function run(
  message: string,
  expressions: string[],
  answer: string,
  use = 'model-a',
  owner: OwnerScope = OWNER,
): Promise<Made> {
  model = use;
  server.setScenario({
    replies: [
      ...expressions.map((e, i) => ({
        toolCalls: [{ id: `c${i}`, name: 'calculator', arguments: JSON.stringify({ expression: e }) }],
      })),
      { content: answer },
    ],
  });
  const started = await service.send(everyToolActor(owner), {
    message,
    settings: { tools: ['calculator', 'current_time'] },
  });
  await drain(follow(service, owner, started.runId));
  const m = { runId: started.runId, model: use, calculatorFailed: expressions.some((e) => e.endsWith('/')) };
  (owner === OWNER ? made : others).push(m);
  return m;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'runs-search-'));
  server = await createModelServer();
  store = await openSqliteStore(path.join(dir, 'chat.db'));
  service = (
    await chatContext(
      store,
      (s) =>
        new FnCallAgent({
          llm: createChatModel({
            model,
            baseURL: server.url,
            apiKey: 'k',
            fncallMode: s.fncallMode,
            generateCfg: { max_retries: 0 },
          }),
          functionList: s.tools,
          name: 'assistant',
        }),
      { DATA_DIR: dir },
    )
  ).chat;
  await run('What is 6*7007?', ['6*7007'], 'It is 42042.');
  // The other user's runs come between the owner's: a model, a tool failure and words of their own.
  await run('Find the okapi', ['7/'], 'The okapi sum failed.', 'model-c', OTHER);
  await run('Divide badly', ['8/'], 'That failed.');
  await run('Two sums', ['1+1', '9/'], 'One of them failed.', 'model-b');
  await run('A plain question', [], 'Just words, no tools.', 'model-b');
  await run('Find the zebra', ['12345*3'], 'Done.');
  await run('The zebra of user b', ['5*5'], 'It is 25.', 'model-c', OTHER);
}, 60_000);

afterAll(async () => {
  await store.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Runs search (SQLite, FTS5)', () => {
  it('lists every run newest first with its model, counts and tokens', async () => {
    const page = await store.searchRuns(OWNER, {});
    expect(page.total).toBe(made.length);
    expect(page.rows.map((r) => r.runId)).toEqual(made.map((m) => m.runId).reverse());
    const twoSums = page.rows.find((r) => r.runId === made[2]!.runId)!;
    expect(twoSums).toMatchObject({
      model: 'model-b',
      agent: 'fncall',
      outcome: 'answered',
      llmCalls: 3,
      toolCalls: 2,
      failedToolCalls: 1,
      conversationTitle: 'Two sums',
    });
    expect(twoSums.promptTokens).toBeGreaterThan(0);
  });

  it('"Failed tool calls only" with tool calculator lists exactly the runs that had a failed calculator call', async () => {
    const page = await store.searchRuns(OWNER, { tool: 'calculator', failedToolsOnly: true });
    const expected = made.filter((m) => m.calculatorFailed).map((m) => m.runId);
    expect(expected).toHaveLength(2);
    expect(page.rows.map((r) => r.runId).sort()).toEqual(expected.sort());
    // Without "failed only": every run that called it.
    expect((await store.searchRuns(OWNER, { tool: 'calculator' })).total).toBe(4);
    expect((await store.searchRuns(OWNER, { tool: 'current_time' })).total).toBe(0);
  });

  it('finds a run by a word that appears only in one tool result, in its arguments, in a message or an answer', async () => {
    // 37035 is only in the calculator's result for 12345*3 (not in its arguments, the message or the answer).
    const events = await store.getRunEvents(OWNER, made[4]!.runId);
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ content: '37035' });
    const elsewhere = events.filter((e) => e.type === 'tool-call' || e.type === 'text-delta' || e.type === 'run-start');
    expect(JSON.stringify(elsewhere)).not.toContain('37035');
    const byResult = await store.searchRuns(OWNER, { text: '37035' });
    expect(byResult.rows.map((r) => r.runId)).toEqual([made[4]!.runId]);
    expect((await store.searchRuns(OWNER, { text: '12345' })).rows.map((r) => r.runId)).toEqual([made[4]!.runId]);
    // Five digits: a failed call's error id (8 random hex digits, in its result) holds a 2-digit number now and then.
    const bySum = await store.searchRuns(OWNER, { text: '42042' });
    expect(bySum.rows.map((r) => r.runId)).toEqual([made[0]!.runId]);
    // Words shorter than a trigram: matched by LIKE.
    expect((await store.searchRuns(OWNER, { text: 'no' })).rows.map((r) => r.runId)).toEqual([made[3]!.runId]);
    expect((await store.searchRuns(OWNER, { text: 'ZEBRA' })).rows.map((r) => r.runId)).toEqual([made[4]!.runId]);
    expect((await store.searchRuns(OWNER, { text: 'words tools' })).rows.map((r) => r.runId)).toEqual([made[3]!.runId]);
    expect((await store.searchRuns(OWNER, { text: 'nowhere-to-be-found' })).total).toBe(0);
  });

  it('filters by model, outcome, agent and dates, and pages', async () => {
    expect((await store.searchRuns(OWNER, { model: 'model-b' })).total).toBe(2);
    expect((await store.searchRuns(OWNER, { outcome: 'error' })).total).toBe(0);
    expect((await store.searchRuns(OWNER, { agent: 'fncall', outcome: 'answered' })).total).toBe(5);
    const today = new Date().toISOString().slice(0, 10);
    expect((await store.searchRuns(OWNER, { from: today, to: today })).total).toBe(5);
    expect((await store.searchRuns(OWNER, { to: '2000-01-01' })).total).toBe(0);
    expect(await store.searchRuns(OWNER, { page: 9 })).toMatchObject({ page: 1, pageCount: 1, hasOlder: false });
    expect(await store.runFacets(OWNER)).toEqual({
      tools: ['calculator'],
      models: ['model-a', 'model-b'],
      agents: ['fncall'],
      savedAgents: [],
    });
  });

  it("another user's runs never appear in the owner's list, figures, facets or search, and the reverse", async () => {
    const mine = made.map((m) => m.runId);
    const theirs = others.map((m) => m.runId);
    expect(theirs).toHaveLength(2);
    const all = await store.searchRuns(OWNER, {});
    expect(all.rows.map((r) => r.runId).sort()).toEqual([...mine].sort());
    expect((await store.searchRuns(OWNER, { text: 'okapi' })).total).toBe(0);
    expect((await store.searchRuns(OWNER, { model: 'model-c' })).total).toBe(0);
    expect((await store.searchRuns(OWNER, { text: 'zebra' })).rows.map((r) => r.runId)).toEqual([made[4]!.runId]);
    expect((await store.runFacets(OWNER)).models).toEqual(['model-a', 'model-b']);
    const figures = await store.runFigures(OWNER, {});
    expect(figures.runs).toBe(made.length);
    expect(figures.models.map((f) => f.model)).toEqual(['model-a', 'model-b']);
    expect(figures.tools[0]).toMatchObject({ name: 'calculator', failed: 2 });
    expect(figures.days.reduce((n, d) => n + d.runs, 0)).toBe(made.length);

    const other = await store.searchRuns(OTHER, {});
    expect(other.rows.map((r) => r.runId)).toEqual([...theirs].reverse());
    expect((await store.searchRuns(OTHER, { text: 'zebra' })).rows.map((r) => r.runId)).toEqual([theirs[1]]);
    expect(await store.runFacets(OTHER)).toEqual({
      tools: ['calculator'],
      models: ['model-c'],
      agents: ['fncall'],
      savedAgents: [],
    });
    expect(await store.runFigures(OTHER, {})).toMatchObject({ runs: 2, tools: [{ calls: 2, failed: 1 }] });
    expect((await store.searchRuns(ownerScope('nobody'), {})).total).toBe(0);
  });

  it('figures match a count over the same runs', async () => {
    const figures = await store.runFigures(OWNER, {});
    const events = (await Promise.all(made.map((m) => store.getRunEvents(OWNER, m.runId)))).flat();
    const results = events.filter((e) => e.type === 'tool-result');
    const ms = results.map((e) => e.durationMs).sort((a, b) => a - b);
    expect(figures.tools).toEqual([
      {
        name: 'calculator',
        calls: results.length,
        failed: results.filter((e) => !e.ok).length,
        p50Ms: percentile(ms, 50),
        p95Ms: percentile(ms, 95),
      },
    ]);
    expect(results.filter((e) => !e.ok)).toHaveLength(2);
    for (const name of ['model-a', 'model-b']) {
      const runs = new Set(made.filter((m) => m.model === name).map((m) => m.runId));
      const ends = events.filter((e) => e.type === 'llm-end' && runs.has(e.runId));
      const ttft = ends.map((e) => (e.type === 'llm-end' ? e.ttftMs! : 0)).sort((a, b) => a - b);
      const sum = (k: 'promptTokens' | 'completionTokens') =>
        ends.reduce((n, e) => n + (e.type === 'llm-end' ? (e.usage?.[k] ?? 0) : 0), 0);
      expect(figures.models.find((f) => f.model === name)).toEqual({
        model: name,
        calls: ends.length,
        promptTokens: sum('promptTokens'),
        completionTokens: sum('completionTokens'),
        ttftP50Ms: percentile(ttft, 50),
        ttftP95Ms: percentile(ttft, 95),
      });
    }
    expect(figures.days).toEqual([{ day: new Date().toISOString().slice(0, 10), runs: 5 }]);
    expect(figures).toMatchObject({ runs: 5, newestOnly: false });
    // Over a filter: only the failed-calculator runs.
    const failed = await store.runFigures(OWNER, { tool: 'calculator', failedToolsOnly: true });
    expect(failed.tools[0]).toMatchObject({ calls: 3, failed: 2 });
  });

  it("indexes runs written before the index existed when the file is opened, and drops a deleted conversation's", async () => {
    const file = path.join(dir, 'chat.db');
    const copy = path.join(dir, 'old.db');
    await store.close();
    // The same file as an older version left it: no index rows.
    const db = new Database(file);
    db.exec('DELETE FROM run_summaries');
    expect(db.prepare('SELECT count(*) AS n FROM run_text').get()).toEqual({ n: 0 });
    await db.backup(copy);
    db.close();
    store = await openSqliteStore(copy);
    expect((await store.searchRuns(OWNER, { tool: 'calculator', failedToolsOnly: true })).total).toBe(2);
    expect((await store.searchRuns(OWNER, { text: 'zebra' })).total).toBe(1);
    // Back-filled under their conversations' owners.
    expect((await store.searchRuns(OTHER, {})).total).toBe(2);
    expect((await store.searchRuns(OTHER, { text: 'okapi' })).total).toBe(1);

    const zebra = (await store.searchRuns(OWNER, { text: 'zebra' })).rows[0]!;
    // Not the other user's to delete: nothing goes.
    await expect(store.deleteConversation(OTHER, zebra.conversationId)).rejects.toThrow(/Unknown conversation/);
    expect((await store.searchRuns(OWNER, { text: 'zebra' })).total).toBe(1);
    await store.deleteConversation(OWNER, zebra.conversationId);
    expect((await store.searchRuns(OWNER, { text: 'zebra' })).total).toBe(0);
    expect((await store.searchRuns(OWNER, {})).total).toBe(4);
    expect((await store.searchRuns(OTHER, { text: 'zebra' })).total).toBe(1);
    await store.close();
    const check = new Database(copy);
    expect(check.prepare('SELECT count(*) AS n FROM run_text').get()).toEqual({ n: 4 + 2 });
    expect(check.prepare('SELECT count(*) AS n FROM run_summaries').get()).toEqual({ n: 4 + 2 });
    check.close();
    store = await openSqliteStore(copy);
  });

  it("the first admin's adoption of the local data takes its runs' index rows with it", async () => {
    const admin = ownerScope('admin-1');
    expect(await store.adoptLocalData(admin)).toBe(4);
    expect((await store.searchRuns(OWNER, {})).total).toBe(0);
    expect((await store.runFigures(OWNER, {})).runs).toBe(0);
    expect((await store.searchRuns(admin, { tool: 'calculator', failedToolsOnly: true })).total).toBe(2);
    expect((await store.runFigures(admin, {})).runs).toBe(4);
    expect((await store.runFacets(admin)).models).toEqual(['model-a', 'model-b']);
    expect((await store.searchRuns(OTHER, {})).total).toBe(2);
  });
});
