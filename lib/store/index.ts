// The store the app opens: SQLite under DATA_DIR by default, PostgreSQL when DATABASE_URL says so (the composition
// root, lib/server/context.ts, opens it once per process). One store (store.ts) over either dialect.
import fs from 'node:fs';
import path from 'node:path';
import { openPostgresDialect, type PostgresOptions } from './postgres-dialect';
import type { RunBus } from './run-bus';
import { openSqliteDialect } from './sqlite-dialect';
import { createStore, type StoreOptions } from './store';
import type { ChatStore, ConversationSettings } from './types';

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
  return createStore(openSqliteDialect(file), opts);
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
  let store: ChatStore;
  if (opts.databaseUrl) {
    store = await openPostgresStore(opts.databaseUrl, { ...opts.postgres, defaults: opts.defaults });
  } else {
    fs.mkdirSync(dataDir, { recursive: true });
    store = await openSqliteStore(path.join(dataDir, DB_FILE_NAME), { defaults: opts.defaults });
  }
  await store.markInterruptedRuns();
  return store;
}
