// Cost and context per step, end to end below the page: a connection with a price for one of its models (and a
// context length the server's model list overrides), runs through the app's own agent factory against the scripted
// model server with usage in its answers, and what the store kept: the run-start's prices and context length, each
// call's cost and gauge as the inspector folds them, and the run's cost on the Runs page. A later price change
// costs the next run, not the ones already run. On each store: SQLite, and PostgreSQL when the tests have one.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeViewer } from '../../lib/auth/viewer';
import { loadConfig } from '../../lib/config';
import { foldInspection } from '../../lib/inspect/fold';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openStore } from '../../lib/store';
import { LOCAL_OWNER_ID, ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { drain, follow } from '../support/chat';
import { freshDatabase, postgresMissing, type TestDatabase } from '../support/postgres';

const ADMIN = makeViewer({
  owner: ownerScope(LOCAL_OWNER_ID),
  admin: true,
  via: 'local',
  userTools: { codeInterpreter: true, web: true },
});
const PRICE = { inputPerMTok: 2, outputPerMTok: 10 };

let lab: ModelServer;
let store: ChatStore;
let ctx: AppContext;
let connectionId: string;

/** A run on `model`: a calculator call (usage 950 in / 50 out), then the answer (usage 980 in / 20 out). */
async function run(model: string, message: string): Promise<string> {
  lab.setScenario({
    replies: [
      {
        toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }],
        usage: { prompt_tokens: 950, completion_tokens: 50 },
      },
      { content: 'It is 42.', usage: { prompt_tokens: 980, completion_tokens: 20 } },
    ],
  });
  const conversation = await store.createConversation(ADMIN.owner, {
    settings: { model: `${connectionId}/${model}`, tools: ['calculator'] },
  });
  const started = await ctx.chat.send(ADMIN, { conversationId: conversation.id, message });
  const events = await drain(follow(ctx.chat, ADMIN.owner, started.runId));
  expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'answered' });
  return started.runId;
}

async function inspected(runId: string) {
  return foldInspection(await store.getRunEvents(ADMIN.owner, runId));
}

beforeAll(async () => {
  lab = await createModelServer({ model: 'priced', moreModels: ['unpriced'], contextLength: 1000 });
});

afterAll(async () => {
  await lab.close();
});

const missing = postgresMissing();
describe('cost and context per step on SQLite', () => costSuite(async () => ({})));
if (missing) describe('cost and context per step on PostgreSQL', () => it.skip(`skipped: ${missing}`, () => undefined));
else
  describe('cost and context per step on PostgreSQL', () => {
    let db: TestDatabase;
    afterAll(() => db.drop());
    costSuite(async () => {
      db = await freshDatabase('cost');
      return { DATABASE_URL: db.url };
    });
  });

/** `database`: the store's variables (none: SQLite in the data directory). */
function costSuite(database: () => Promise<{ DATABASE_URL?: string }>): void {
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'run-cost-'));
    const env = { DATA_DIR: dataDir, MODEL_SCAN_PORTS: 'off', ...(await database()) };
    store = await openStore(dataDir, { databaseUrl: env.DATABASE_URL });
    ctx = await createAppContext(loadConfig(env), store);
    const added = await ctx.models.addConnection(ADMIN, {
      name: 'Lab',
      baseURL: lab.url,
      rates: { '*': { contextLength: 4096 }, priced: { pricing: PRICE } },
    });
    connectionId = added.id;
    await ctx.models.listModels(ADMIN); // what the picker does when the page opens: the server's list is read
  }, 30_000);

  afterAll(async () => {
    await store.close();
  });

  describe('cost and context per step', () => {
    it('keeps the prices and context length with the run, and costs each call and the run from them', async () => {
      const runId = await run('priced', 'What is 6*7, priced?');
      const events = await store.getRunEvents(ADMIN.owner, runId);
      // The server's max_model_len (1000) wins over the length set on the connection (4096).
      expect(events.find((e) => e.type === 'run-start')).toMatchObject({ pricing: PRICE, contextLength: 1000 });

      const inspection = await inspected(runId);
      expect(inspection.iterations).toHaveLength(2);
      const [first, second] = inspection.iterations;
      expect(first!.cost).toEqual({ state: 'priced', amount: (950 * 2 + 50 * 10) / 1e6 });
      expect(second!.cost.state === 'priced' && second!.cost.amount).toBeCloseTo((980 * 2 + 20 * 10) / 1e6, 12);
      expect(first!.context).toMatchObject({ inputTokens: 950, contextLength: 1000, percent: 95, high: true });
      const total = (950 * 2 + 50 * 10 + 980 * 2 + 20 * 10) / 1e6;
      expect(inspection.cost.state === 'priced' && inspection.cost.amount).toBeCloseTo(total, 12);

      const row = (await store.searchRuns(ADMIN.owner, { text: 'priced' })).rows.find((r) => r.runId === runId);
      expect(row?.cost).toBeCloseTo(total, 12);
    });

    it('says "no price" for a model without one (never 0), and still gauges its context', async () => {
      const runId = await run('unpriced', 'What is 6*7, unpriced?');
      const inspection = await inspected(runId);
      expect(inspection.cost).toEqual({ state: 'no-price' });
      expect(inspection.iterations[0]!.cost).toEqual({ state: 'no-price' });
      expect(inspection.iterations[1]!.context).toMatchObject({ inputTokens: 980, contextLength: 1000, high: true });
      const row = (await store.searchRuns(ADMIN.owner, { text: 'unpriced' })).rows.find((r) => r.runId === runId);
      expect(row).toBeDefined();
      expect(row!.cost).toBeUndefined();
    });

    it('a later price change costs the next run, not the ones already run', async () => {
      const before = await run('priced', 'Before the price change');
      const old = (await inspected(before)).cost;
      await ctx.models.updateConnection(ADMIN, connectionId, {
        rates: { priced: { pricing: { inputPerMTok: 100, outputPerMTok: 100 } } },
      });
      const after = await run('priced', 'After the price change');
      expect((await inspected(before)).cost).toEqual(old);
      const page = await store.searchRuns(ADMIN.owner, { text: 'price change' });
      const cost = (id: string) => page.rows.find((r) => r.runId === id)?.cost;
      expect(cost(before)).toBeCloseTo((950 * 2 + 50 * 10 + 980 * 2 + 20 * 10) / 1e6, 12);
      expect(cost(after)).toBeCloseTo(((950 + 50 + 980 + 20) * 100) / 1e6, 12);
    });

    it('refuses a price that is not a number in range, and keeps what was set', async () => {
      await expect(
        ctx.models.updateConnection(ADMIN, connectionId, {
          rates: { priced: { pricing: { inputPerMTok: -1, outputPerMTok: 1 } } },
        }),
      ).rejects.toThrow(/a price per million tokens is a number from 0/);
      const kept = (await ctx.models.connections(ADMIN)).find((c) => c.id === connectionId);
      expect(kept?.rates).toEqual({ priced: { pricing: { inputPerMTok: 100, outputPerMTok: 100 } } });
    });
  });
}
