// The store the app opens: SQLite under DATA_DIR by default, PostgreSQL when DATABASE_URL says so (the composition
// root, lib/server/context.ts, opens it once per process). One ChatStore over either dialect: the schema brought up
// to date (migrations.ts), then one object made of the aggregates, each written once (conversations, runs, the Runs
// page's index, documents, connections, agents, accounts), each given the same context (context.ts).
import fs from 'node:fs';
import path from 'node:path';
import { openPostgresDialect, type PostgresOptions } from './postgres-dialect';
import { openSqliteDialect } from './sqlite-dialect';
import { defaultSettings } from '../protocol/conversation-settings';
import type { ChatStore, ConversationSettings } from './types';
import { accountStore } from './accounts';
import { chunkVectorStore } from './chunk-vectors';
import { agentStore } from './agents';
import { connectionStore } from './connections';
import { conversationStore } from './conversations';
import type { Ctx } from './context';
import type { Dialect } from './dialect';
import { documentStore } from './documents';
import { MIGRATIONS } from './migrations';
import { LOCAL_OWNER_ID } from './owner';
import { type BusOptions, type RunBus, SharedRunBus } from './run-bus';
import { runSearch } from './run-index';
import { indexUnindexed, runStore } from './runs';

export const DB_FILE_NAME = 'agent-studio.db';

export type PostgresStoreOptions = StoreOptions & PostgresOptions;
export type PostgresChatStore = ChatStore & { readonly runBus: RunBus };

export interface OpenStoreOptions {
  defaults?: ConversationSettings;
  /** postgres://… (DATABASE_URL): PostgreSQL, which several instances may share; else SQLite in `dataDir`. */
  databaseUrl?: string;
  postgres?: Omit<PostgresStoreOptions, 'defaults'>;
}

/** The store on one SQLite file (created when missing). */
export function openSqliteStore(file: string, opts: StoreOptions = {}): Promise<ChatStore> {
  return createStore(openSqliteDialect(file, { busyWaitMs: opts.busyWaitMs }), opts);
}

/** The store on PostgreSQL at `url` (postgres://…): this instance's heartbeat renews its runs' leases and marks
 *  interrupted the runs whose lease ran out (unless `maintenance` is false). */
export async function openPostgresStore(url: string, opts: PostgresStoreOptions = {}): Promise<PostgresChatStore> {
  return (await createStore(openPostgresDialect(url, opts), opts)) as PostgresChatStore;
}

/** The store (a SQLite file in `dataDir`, created when missing, or the PostgreSQL database). Runs whose driver is
 *  gone (on SQLite: any an earlier process left 'running'; on PostgreSQL: those whose lease ran out) are marked
 *  interrupted before the store is handed out. */
export async function openStore(dataDir: string, opts: OpenStoreOptions = {}): Promise<ChatStore> {
  if (!opts.databaseUrl) fs.mkdirSync(dataDir, { recursive: true });
  const store = opts.databaseUrl
    ? await openPostgresStore(opts.databaseUrl, { ...opts.postgres, defaults: opts.defaults })
    : await openSqliteStore(path.join(dataDir, DB_FILE_NAME), { defaults: opts.defaults });
  await store.markInterruptedRuns();
  return store;
}

export interface StoreOptions extends BusOptions {
  /** The settings of a conversation made without any (and of fields added since a row was written). */
  defaults?: ConversationSettings;
  /** SQLite: how long a statement waits for a lock another program holds on the file before it fails with
   *  StoreBusyError (default 30 s, sqlite-dialect.ts BUSY_WAIT_MS). */
  busyWaitMs?: number;
}

/** The store on `d`, its schema brought up to date; runs that ended before the Runs index existed (or whose summary a
 *  migration dropped) are indexed now, under the migrations' lock (instances starting at once index each once). */
async function createStore(d: Dialect, opts: StoreOptions = {}): Promise<ChatStore> {
  try {
    await d.migrate(
      MIGRATIONS.map((step) => step(d.ddl)),
      (db) => indexUnindexed({ d }, db),
    );
    const bus = d.listen && (await SharedRunBus.start(d.db, d.listen, opts));
    let lastNow = 0;
    const ctx: Ctx = {
      d,
      db: d.db,
      defaults: opts.defaults ?? defaultSettings(),
      bus,
      now: () => (lastNow = Math.max(Date.now(), lastNow + 1)),
      write: (fn) => d.db.transaction().execute(fn),
      read: (fn) => d.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn),
    };
    const store: ChatStore = {
      ...conversationStore(ctx),
      ...runStore(ctx),
      ...documentStore(ctx),
      ...connectionStore(ctx),
      ...agentStore(ctx),
      ...accountStore(ctx),
      ...chunkVectorStore(ctx),
      ...runSearch(d),
      /** The local owner's conversations, agents (with the uploads they hold) and their runs' index rows (which carry
       *  a copy of the owner). */
      async adoptLocalData(owner) {
        if (owner.ownerId === LOCAL_OWNER_ID) return 0;
        return ctx.write(async (db) => {
          const adopt = (table: 'agent_documents' | 'agents' | 'run_summaries' | 'conversations') =>
            db.updateTable(table).set({ owner_id: owner.ownerId }).where('owner_id', '=', LOCAL_OWNER_ID);
          for (const table of ['agent_documents', 'agents', 'run_summaries'] as const) await adopt(table).execute();
          return Number((await adopt('conversations').executeTakeFirst()).numUpdatedRows);
        });
      },
      authDatabase: d.auth,
      ...(bus ? { runBus: bus } : {}),
      async close() {
        await bus?.close();
        await d.close();
      },
    };
    if (bus && opts.maintenance !== false) bus.maintain(() => store.markInterruptedRuns());
    return store;
  } catch (e) {
    await d.close().catch(() => undefined);
    throw e;
  }
}
