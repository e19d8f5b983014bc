// The store the app opens: SQLite under DATA_DIR by default (the composition root, lib/server/context.ts, opens it
// once per process).
import fs from 'node:fs';
import path from 'node:path';
import { openSqliteStore } from './sqlite';
import type { ChatStore, ConversationSettings } from './types';

export const DB_FILE_NAME = 'agent-studio.db';

/** The store in `dataDir` (created when missing). Runs an earlier process left 'running' were cut off by its end:
 *  they are marked interrupted before the store is handed out. */
export async function openStore(dataDir: string, opts: { defaults?: ConversationSettings } = {}): Promise<ChatStore> {
  fs.mkdirSync(dataDir, { recursive: true });
  const store = openSqliteStore(path.join(dataDir, DB_FILE_NAME), opts);
  await store.markInterruptedRuns();
  return store;
}
