// The store's contract suite (test/support/store-suite.ts) on SQLite (a file of its own per test) and on a real
// PostgreSQL (a database of its own per test; TEST_DATABASE_URL, which `npm test` sets), then what only one of them
// has: SQLite's file (WAL, a process killed mid-write); PostgreSQL's instances sharing the database (leases, an
// instance killed mid-run).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, postgresMissing, queryRows } from '../../test/support/postgres';
import { postgresInstances } from '../../test/support/postgres-instances';
import { describeChatStore, type StoreHarness } from '../../test/support/store-suite';
import { STORE_FIXTURE } from '../../test/support/store-suite-schema';
import type { AgentEvent } from '../protocol/events';
import type { Dialect } from './dialect';
import { DB_FILE_NAME, openPostgresStore, openSqliteStore, type PostgresChatStore } from '.';
import { SCHEMA_VERSION } from './migrations';
import { ownerScope } from './owner';
import { openPostgresDialect } from './postgres-dialect';
import { openSqliteDialect } from './sqlite-dialect';
import type { StoreOptions } from '.';
import type { ChatStore } from './types';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');
const OWNER = ownerScope('owner-a');
const missing = postgresMissing();

function delta(runId: string, text: string, t = 0): AgentEvent {
  return { type: 'text-delta', runId, iteration: 1, t, text };
}

/** What a harness keeps to close at its end. */
function opener<O>(openStore: (opts: O) => Promise<ChatStore>, openDialect: () => Dialect) {
  const stores: ChatStore[] = [];
  const dialects: Dialect[] = [];
  return {
    async open(opts: O) {
      const store = await openStore(opts);
      stores.push(store);
      return store;
    },
    dialect() {
      const d = openDialect();
      dialects.push(d);
      return d;
    },
    async close() {
      for (const store of stores) await store.close().catch(() => undefined); // some were closed by the test
      for (const d of dialects) await d.close().catch(() => undefined);
    },
  };
}

async function sqliteHarness(): Promise<StoreHarness & { file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suite-'));
  const file = path.join(dir, DB_FILE_NAME);
  const raw = <T>(fn: (db: Database.Database) => T) => {
    const db = new Database(file);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  const o = opener(
    (opts: StoreOptions = {}) => openSqliteStore(file, opts),
    () => openSqliteDialect(file),
  );
  return {
    file,
    open: () => o.open({}),
    reopen: (opts) => o.open(opts ?? {}),
    dialect: () => o.dialect(),
    schemaVersion: async () => raw((db) => db.pragma('user_version', { simple: true }) as number),
    setSchemaVersion: async (version) => void raw((db) => db.pragma(`user_version = ${version}`)),
    async layout() {
      const rows = raw(
        (db) =>
          db
            .prepare(
              "SELECT type, tbl_name, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
            )
            .all() as { type: string; tbl_name: string; name: string; sql: string | null }[],
      );
      // The text as written, without comments and white space (the old steps were laid out otherwise).
      return rows.map(
        (r) =>
          `${r.type} ${r.tbl_name} ${r.name} ${(r.sql ?? '')
            .replace(/--[^\n]*/g, '')
            .replace(/\s+/g, '')
            .toLowerCase()}`,
      );
    },
    async restoreFixture() {
      STORE_FIXTURE.copySqlite(file);
      return { dataDir: dir, env: {} };
    },
    async cleanup() {
      await o.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresHarness(): Promise<StoreHarness> {
  const db = await freshDatabase('suite');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suite-pg-'));
  const o = opener(
    (opts: StoreOptions = {}) => openPostgresStore(db.url, { maintenance: false, ...opts }),
    () => openPostgresDialect(db.url),
  );
  return {
    open: () => o.open({}),
    reopen: (opts) => o.open(opts ?? {}),
    dialect: () => o.dialect(),
    async schemaVersion() {
      return (await queryRows<{ v: number }>(db.url, 'SELECT max(version) AS v FROM schema_migrations'))[0]!.v;
    },
    async setSchemaVersion(version) {
      await queryRows(db.url, 'DELETE FROM schema_migrations WHERE version > $1', [version]);
      await queryRows(db.url, 'INSERT INTO schema_migrations (version) VALUES ($1) ON CONFLICT DO NOTHING', [version]);
    },
    async layout() {
      const columns = await queryRows<Record<string, string>>(
        db.url,
        `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity
           FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`,
      );
      const indexes = await queryRows<Record<string, string>>(
        db.url,
        "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
      );
      const constraints = await queryRows<Record<string, string>>(
        db.url,
        `SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
           WHERE connamespace = 'public'::regnamespace ORDER BY conname`,
      );
      return [
        ...columns.map((c) => `table ${c.table_name} ${Object.values(c).join(' ')}`),
        ...indexes.map((i) => `index ${i.tablename} ${i.indexname} ${i.indexdef}`),
        ...constraints.map((c) => `table ${c.t} constraint ${c.conname} ${c.def}`),
      ];
    },
    async restoreFixture() {
      await queryRows(db.url, STORE_FIXTURE.postgresDump());
      return { dataDir, env: { DATABASE_URL: db.url } };
    },
    async cleanup() {
      await o.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A child process that opens the store with `open` (code), starts or takes run 'crash', and appends c0, c1, …
 *  forever, printing each count once its append returned; killed once it printed `killAt`. Resolves with how many
 *  appends it acknowledged. */
async function appendUntilKilled(open: string, args: string[], killAt: number): Promise<number> {
  const child = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'store-kill-')), 'append-forever.mts');
  fs.writeFileSync(
    child,
    [
      `import { openPostgresStore, openSqliteStore } from ${JSON.stringify(path.join(HERE, 'index.ts'))};`,
      `import { ownerScope } from ${JSON.stringify(path.join(HERE, 'owner.ts'))};`,
      `const OWNER = ownerScope('owner-a');`,
      `const [target, turnId] = process.argv.slice(2) as [string, string];`,
      open,
      `for (let i = 0; ; i++) {`,
      `  await store.appendEvents(OWNER, 'crash', [{ type: 'text-delta', runId: 'crash', iteration: 1, t: i, text: 'c' + i + ' ' }]);`,
      `  await new Promise((done) => process.stdout.write(i + 1 + '\\n', done));`,
      `}`,
    ].join('\n'),
  );
  const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let reported = 0;
  let buffer = '';
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
  proc.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) reported = Math.max(reported, Number(line));
    if (reported >= killAt && proc.exitCode === null && !proc.killed) proc.kill('SIGKILL');
  });
  expect(await exited).toBe('SIGKILL');
  expect(stderr).toBe('');
  expect(reported).toBeGreaterThanOrEqual(killAt);
  return reported;
}

describeChatStore('SQLite', sqliteHarness);

describe('SQLite chat store file', () => {
  let h: Awaited<ReturnType<typeof sqliteHarness>>;
  beforeEach(async () => {
    h = await sqliteHarness();
  });
  afterEach(() => h.cleanup());

  it('opens the file in WAL mode', async () => {
    await h.open();
    const raw = new Database(h.file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('keeps every event a killed process appended, and reads its run as interrupted after reopening', async () => {
    const first = await h.open();
    const conversation = await first.createConversation(OWNER);
    await first.addTurnWithRun(OWNER, conversation.id, 'stream a long answer', 'crash');
    for (let i = 0; i < 3; i++) await first.appendEvents(OWNER, 'crash', [delta('crash', `p${i} `, i)]);
    const reported = await appendUntilKilled('const store = await openSqliteStore(target);', [h.file, 'crash'], 500);

    const reopened = await h.reopen();
    const texts = (await reopened.getRunEvents(OWNER, 'crash')).map((e) => (e.type === 'text-delta' ? e.text : '?'));
    const fromChild = texts.slice(3);
    expect(texts.slice(0, 3)).toEqual(['p0 ', 'p1 ', 'p2 ']);
    // every acknowledged append is there, in order, with nothing torn or skipped
    expect(fromChild.length).toBeGreaterThanOrEqual(reported);
    expect(fromChild).toEqual(fromChild.map((_, i) => `c${i} `));

    expect((await reopened.getRun(OWNER, 'crash'))?.status).toBe('running');
    expect(await reopened.markInterruptedRuns()).toBe(1);
    expect((await reopened.getRun(OWNER, 'crash'))?.status).toBe('interrupted');
    expect((await first.getRun(OWNER, 'crash'))?.status).toBe('interrupted');
    // what the cut-off run had said is searchable like any finished answer
    expect((await reopened.listConversations(OWNER, `c${reported - 1}`)).map((c) => c.id)).toEqual([conversation.id]);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

if (missing) {
  describe('PostgreSQL chat store', () => it.skip(`skipped: ${missing}`, () => undefined));
} else {
  describeChatStore('PostgreSQL', postgresHarness);

  describe('PostgreSQL chat store: instances and leases', () => {
    const { open, url } = postgresInstances('pg');

    async function runningRun(store: PostgresChatStore, runId: string) {
      const { turn } = await store.addTurnWithRun(OWNER, (await store.createConversation(OWNER)).id, 'q', runId);
      return turn;
    }

    it('records each migration once, in schema_migrations', async () => {
      await Promise.all([open(), open(), open()]);
      const versions = await queryRows<{ version: number }>(
        url(),
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(versions.map((v) => v.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    });

    it('indexes a run the lease sweep marks interrupted', async () => {
      const a = await open({ leaseMs: 100 });
      const b = await open();
      await runningRun(a, 'cut-off');
      await a.appendEvents(OWNER, 'cut-off', [delta('cut-off', 'half an answer')]);
      await a.close(); // its lease ends with it
      expect(await b.markInterruptedRuns()).toBe(1);
      expect((await b.searchRuns(OWNER, { outcome: 'interrupted', text: 'half' })).rows.map((r) => r.runId)).toEqual([
        'cut-off',
      ]);
    });

    it('lets only the instance that drives a run write it, and leaves a live lease alone', async () => {
      const a = await open();
      const b = await open();
      await runningRun(a, 'r');
      a.runBus.hold('r');
      await a.appendEvents(OWNER, 'r', [delta('r', 'from a')]);
      await expect(b.appendEvents(OWNER, 'r', [delta('r', 'from b')])).rejects.toThrow(
        'Run "r" is driven by another instance: cannot append a text-delta event.',
      );
      await expect(b.finishRun(OWNER, 'r', 'answered')).rejects.toThrow('Run "r" is driven by another instance');
      expect(await b.markInterruptedRuns()).toBe(0);
      expect((await b.getRun(OWNER, 'r'))?.status).toBe('running');
      expect(await b.getRunEvents(OWNER, 'r')).toEqual([delta('r', 'from a')]);
    });

    it("refuses a run of a conversation another instance's live run holds; a run whose lease ran out holds up nobody", async () => {
      const a = await open({ leaseMs: 60_000 });
      const b = await open();
      const turn = await runningRun(a, 'live');
      a.runBus.hold('live');
      await expect(b.addTurnWithRun(OWNER, turn.conversationId, 'from b', 'b1')).rejects.toMatchObject({
        code: 'conversation-busy',
        status: 409,
      });
      expect(await b.getRun(OWNER, 'b1')).toBeUndefined();
      expect((await b.listTurns(OWNER, turn.conversationId)).map((r) => r.turn.content)).toEqual(['q']);

      await a.close(); // its instance is gone: its lease ends with it, before any sweep ran
      const { run } = await b.addTurnWithRun(OWNER, turn.conversationId, 'from b', 'b1');
      expect(run.status).toBe('running');
      // The dead instance's run was marked interrupted as the new one started, so the conversation has one running.
      expect((await b.getRun(OWNER, 'live'))?.status).toBe('interrupted');
      expect(await b.markInterruptedRuns()).toBe(0);
      expect(await b.runBus.runningRunsOf(turn.conversationId)).toEqual(['b1']);
    });

    it('renews a held lease with each heartbeat; once released, the run is interrupted when its lease runs out', async () => {
      const leaseMs = 400;
      const a = await open({ leaseMs });
      const b = await open({ leaseMs });
      await runningRun(a, 'held');
      a.runBus.hold('held');
      const beat = () => (a.runBus as unknown as { renew(): Promise<void> }).renew();
      for (let i = 0; i < 6; i++) {
        await beat();
        await new Promise((r) => setTimeout(r, leaseMs / 4));
        expect(await b.markInterruptedRuns()).toBe(0);
      }
      a.runBus.release('held');
      await new Promise((r) => setTimeout(r, leaseMs + 50));
      expect(await b.markInterruptedRuns()).toBe(1);
      expect((await b.getRun(OWNER, 'held'))?.status).toBe('interrupted');
      await expect(a.appendEvents(OWNER, 'held', [delta('held', 'too late')])).rejects.toThrow(
        'is interrupted, no longer running',
      );
    });

    it("keeps every event a killed instance stored, and another instance marks its run interrupted within the lease's bound", async () => {
      const leaseMs = 500;
      const watcher = await open({ leaseMs, maintenance: true });
      const turn = await runningRun(watcher, 'seed'); // a conversation to put the child's run in
      await watcher.finishRun(OWNER, 'seed', 'answered');
      let ended = 0;
      let unwatch: (() => void) | undefined;
      const watching = until(async () => (await watcher.getRun(OWNER, 'crash')) !== undefined, 30_000).then(
        async () => (unwatch = await watcher.runBus.watch('crash', () => ended++)),
      );
      const reported = await appendUntilKilled(
        [
          `const store = await openPostgresStore(target, { leaseMs: ${leaseMs} });`,
          `await store.startRun(OWNER, turnId, 'crash');`,
          `store.runBus.hold('crash');`,
        ].join('\n'),
        [url(), turn.id],
        300,
      );
      await watching;
      const killedAt = Date.now();
      expect((await watcher.getRun(OWNER, 'crash'))?.status).toBe('running'); // its lease has not run out yet

      // The watcher's own heartbeat (every leaseMs / 5) finds the run once its lease ran out.
      await until(async () => (await watcher.getRun(OWNER, 'crash'))?.status === 'interrupted', 10_000);
      expect(Date.now() - killedAt).toBeLessThanOrEqual(leaseMs + watcher.runBus.lease.heartbeatMs + 1_000);
      unwatch?.();
      expect(ended).toBeGreaterThan(0); // followers were told it ended

      const texts = (await watcher.getRunEvents(OWNER, 'crash')).map((e) => (e.type === 'text-delta' ? e.text : '?'));
      expect(texts.length).toBeGreaterThanOrEqual(reported);
      expect(texts).toEqual(texts.map((_, i) => `c${i} `));
    }, 60_000);
  });
}
