// The PostgreSQL store against a real server (TEST_DATABASE_URL; `npm test` starts a throwaway cluster): the shared
// store suite (test/support/store-suite.ts) on a database of its own per test, then what only PostgreSQL has:
// migrations shared by instances, leases, and an instance killed mid-run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase, postgresMissing, queryRows, type TestDatabase } from '../../test/support/postgres';
import { describeChatStore } from '../../test/support/store-suite';
import type { AgentEvent } from '../protocol/events';
import { SCHEMA_VERSION } from './migrations';
import { PG_MIGRATIONS } from './pg-schema';
import { openPostgresStore, type PostgresChatStore, type PostgresStoreOptions } from './pg-store';
import { ownerScope } from './owner';

const OWNER = ownerScope('owner-a');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../..');
const missing = postgresMissing();

function delta(runId: string, text: string, t = 0): AgentEvent {
  return { type: 'text-delta', runId, iteration: 1, t, text };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - t0;
}

if (missing) {
  describe('PostgreSQL chat store', () => it.skip(`skipped: ${missing}`, () => undefined));
} else {
  describeChatStore('PostgreSQL', async () => {
    const db = await freshDatabase('suite');
    const opened: PostgresChatStore[] = [];
    const open = async (opts: PostgresStoreOptions = {}) => {
      const store = await openPostgresStore(db.url, { maintenance: false, ...opts });
      opened.push(store);
      return store;
    };
    return {
      open: () => open(),
      reopen: open,
      async countEventRows(runId) {
        const rows = await queryRows<{ n: number }>(
          db.url,
          'SELECT count(*)::int AS n FROM run_events WHERE run_id = $1',
          [runId],
        );
        return rows[0]!.n;
      },
      async keptMessagesJson(runId) {
        const rows = await queryRows<{ m: string | null }>(
          db.url,
          'SELECT messages_json AS m FROM runs WHERE id = $1',
          [runId],
        );
        return rows[0]!.m;
      },
      async forgetRunMessages(runId) {
        await queryRows(db.url, 'UPDATE runs SET messages_json = NULL WHERE id = $1', [runId]);
      },
      async cleanup() {
        for (const store of opened) await store.close().catch(() => undefined); // some were closed by the test
        await db.drop();
      },
    };
  });

  describe('PostgreSQL chat store: instances, migrations, leases', () => {
    let db: TestDatabase;
    const opened: PostgresChatStore[] = [];
    const open = async (opts: PostgresStoreOptions = {}) => {
      const store = await openPostgresStore(db.url, { maintenance: false, ...opts });
      opened.push(store);
      return store;
    };

    beforeEach(async () => {
      db = await freshDatabase('pg');
    });
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => undefined);
      await db.drop();
    });

    async function runningRun(store: PostgresChatStore, runId: string) {
      const turn = await store.addTurn(OWNER, (await store.createConversation(OWNER)).id, 'q');
      await store.startRun(OWNER, turn.id, runId);
      return turn;
    }

    it('has one migration per schema version, applies each once, also when instances start at once', async () => {
      expect(PG_MIGRATIONS).toHaveLength(SCHEMA_VERSION);
      await Promise.all([open(), open(), open()]);
      await open(); // an up-to-date database: nothing to apply
      const versions = await queryRows<{ version: number }>(
        db.url,
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(versions.map((v) => v.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    });

    it('refuses a database of a newer schema, saying so', async () => {
      await open();
      await queryRows(db.url, 'INSERT INTO schema_migrations (version) VALUES ($1)', [SCHEMA_VERSION + 1]);
      await expect(open()).rejects.toThrow(
        `The database is at schema version ${SCHEMA_VERSION + 1}, newer than this app knows (${SCHEMA_VERSION}); upgrade the app.`,
      );
    });

    it('indexes for the Runs page, when an instance opens the store, the runs finished before the index existed, once', async () => {
      const store = await open();
      for (const id of ['old-1', 'old-2']) {
        await runningRun(store, id);
        await store.appendEvents(OWNER, id, [delta(id, `answer of ${id}`)]);
        await store.finishRun(OWNER, id, 'answered');
      }
      await runningRun(store, 'still-running');
      // As a database migrated from before the index: finished runs, no summaries.
      await queryRows(db.url, 'DELETE FROM run_summaries');
      expect((await store.searchRuns(OWNER, {})).rows).toEqual([]);
      await Promise.all([open(), open()]); // two instances starting at once
      const rows = await queryRows<{ run_id: string }>(db.url, 'SELECT run_id FROM run_summaries ORDER BY run_id');
      expect(rows.map((r) => r.run_id)).toEqual(['old-1', 'old-2']);
      expect((await store.searchRuns(OWNER, { text: 'answer of old-2' })).rows.map((r) => r.runId)).toEqual(['old-2']);
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

    it('keeps text with U+0000 in messages, answers and titles readable and searchable', async () => {
      const store = await open();
      const c = await store.createConversation(OWNER, { title: 'nul\u0000title' });
      const turn = await store.addTurn(OWNER, c.id, 'find the nul\u0000byte');
      await store.startRun(OWNER, turn.id, 'r');
      await store.appendEvents(OWNER, 'r', [delta('r', 'ans\u0000wer')]);
      await store.finishRun(OWNER, 'r', 'answered');
      expect((await store.getConversation(OWNER, c.id))?.title).toBe('nultitle');
      expect((await store.getTurn(OWNER, turn.id))?.content).toBe('find the nul\u0000byte');
      expect(await store.getRunEvents(OWNER, 'r')).toEqual([delta('r', 'ans\u0000wer')]);
      expect((await store.listConversations(OWNER, 'answer')).map((x) => x.id)).toEqual([c.id]);
    });

    it('lets only the instance that drives a run write it, and leaves a live lease alone', async () => {
      const a = await open();
      const b = await open();
      await runningRun(a, 'r');
      a.runBus.hold('r');
      await a.appendEvent(OWNER, 'r', delta('r', 'from a'));
      await expect(b.appendEvent(OWNER, 'r', delta('r', 'from b'))).rejects.toThrow(
        'Run "r" is driven by another instance: cannot append a text-delta event.',
      );
      await expect(b.finishRun(OWNER, 'r', 'answered')).rejects.toThrow('Run "r" is driven by another instance');
      expect(await b.markInterruptedRuns()).toBe(0);
      expect((await b.getRun(OWNER, 'r'))?.status).toBe('running');
      expect(await b.getRunEvents(OWNER, 'r')).toEqual([delta('r', 'from a')]);
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
      await expect(a.appendEvent(OWNER, 'held', delta('held', 'too late'))).rejects.toThrow(
        'is interrupted, no longer running',
      );
    });

    it("keeps every event a killed instance stored, and another instance marks its run interrupted within the lease's bound", async () => {
      const leaseMs = 500;
      const watcher = await open({ leaseMs, maintenance: true });
      const turn = await runningRun(watcher, 'seed'); // a conversation to put the child's run in
      await watcher.finishRun(OWNER, 'seed', 'answered');
      const child = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pg-kill-')), 'append-forever.mts');
      fs.writeFileSync(
        child,
        [
          `import { openPostgresStore } from ${JSON.stringify(path.join(HERE, 'pg-store.ts'))};`,
          `import { ownerScope } from ${JSON.stringify(path.join(HERE, 'owner.ts'))};`,
          `const OWNER = ownerScope('owner-a');`,
          `const [url, turnId] = process.argv.slice(2) as [string, string];`,
          `const store = await openPostgresStore(url, { leaseMs: ${leaseMs} });`,
          `await store.startRun(OWNER, turnId, 'crash');`,
          `store.runBus.hold('crash');`,
          `for (let i = 0; ; i++) {`,
          `  await store.appendEvent(OWNER, 'crash', { type: 'text-delta', runId: 'crash', iteration: 1, t: i, text: 'c' + i + ' ' });`,
          `  await new Promise((done) => process.stdout.write(i + 1 + '\\n', done));`,
          `}`,
        ].join('\n'),
      );
      const proc = spawn(process.execPath, ['--import', 'tsx', child, db.url, turn.id], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      let reported = 0;
      let buffer = '';
      const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_c, signal) => resolve(signal)));
      proc.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) reported = Math.max(reported, Number(line));
        if (reported >= 300 && proc.exitCode === null && !proc.killed) proc.kill('SIGKILL');
      });
      let ended = 0;
      await until(async () => (await watcher.getRun(OWNER, 'crash')) !== undefined || proc.exitCode !== null, 30_000);
      const unwatch = await watcher.runBus.watch('crash', () => ended++);
      expect(await exited).toBe('SIGKILL');
      expect(stderr).toBe('');
      const killedAt = Date.now();
      expect((await watcher.getRun(OWNER, 'crash'))?.status).toBe('running'); // its lease has not run out yet

      // The watcher's own heartbeat (every leaseMs / 5) finds the run once its lease ran out.
      await until(async () => (await watcher.getRun(OWNER, 'crash'))?.status === 'interrupted', 10_000);
      const tookMs = Date.now() - killedAt;
      expect(tookMs).toBeLessThanOrEqual(leaseMs + watcher.runBus.lease.heartbeatMs + 1_000);
      unwatch();
      expect(ended).toBeGreaterThan(0); // followers were told it ended

      const texts = (await watcher.getRunEvents(OWNER, 'crash')).map((e) => (e.type === 'text-delta' ? e.text : '?'));
      expect(texts.length).toBeGreaterThanOrEqual(reported);
      expect(texts).toEqual(texts.map((_, i) => `c${i} `));
    }, 60_000);
  });
}
