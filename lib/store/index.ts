// The process-wide store. Kept on globalThis because Next dev re-evaluates modules on every edit, and a second
// connection per reload would leak file handles and re-run the start-up clean-up.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config';
import { openSqliteStore } from './sqlite';
import type { ChatStore } from './types';

export type * from './types';
export { openSqliteStore } from './sqlite';

export const DB_FILE_NAME = 'agent-studio.db';

interface StoreGlobal {
  __agentStudioStore?: { store: ChatStore; file: string };
}
const holder = globalThis as StoreGlobal;

/** The store under DATA_DIR, opened on first use; runs left 'running' by an earlier process are marked interrupted
 *  then. */
export function getStore(): ChatStore {
  if (holder.__agentStudioStore) return holder.__agentStudioStore.store;
  const dataDir = loadConfig().dataDir;
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DB_FILE_NAME);
  const store = openSqliteStore(file);
  void store.markInterruptedRuns(); // done before it returns (SQLite)
  holder.__agentStudioStore = { store, file };
  return store;
}

/** Where the process-wide store lives (undefined until getStore() has opened it). */
export function storeFile(): string | undefined {
  return holder.__agentStudioStore?.file;
}

/** Closes the process-wide store; the next getStore() opens it again (reading DATA_DIR afresh). */
export function closeStore(): void {
  void holder.__agentStudioStore?.store.close();
  delete holder.__agentStudioStore;
}
