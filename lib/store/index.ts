// The store the app opens: SQLite under DATA_DIR by default, PostgreSQL when DATABASE_URL says so (the composition
// root, lib/server/context.ts, opens it once per process).
import fs from 'node:fs';
import path from 'node:path';
import { openPostgresStore, type PostgresStoreOptions } from './pg-store';
import { openSqliteStore } from './sqlite';
import type { ChatStore, ConversationSettings } from './types';

export const DB_FILE_NAME = 'agent-studio.db';

export interface OpenStoreOptions {
  defaults?: ConversationSettings;
  /** postgres://… (DATABASE_URL): PostgreSQL, which several instances may share; else SQLite in `dataDir`. */
  databaseUrl?: string;
  postgres?: Omit<PostgresStoreOptions, 'defaults'>;
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
    store = openSqliteStore(path.join(dataDir, DB_FILE_NAME), { defaults: opts.defaults });
  }
  await store.markInterruptedRuns();
  return store;
}
