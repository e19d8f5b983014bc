// What the store's contract suite (store-suite.ts) needs of a database: lib/store/store.test.ts has one for SQLite
// and one for PostgreSQL.
import type { Dialect } from '../../lib/store/dialect';
import type { StoreOptions } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';

export interface StoreHarness {
  /** The test's store, on a fresh, empty database. */
  open(): Promise<ChatStore>;
  /** Another store on the same database (after a restart, or another instance's). */
  reopen(opts?: StoreOptions): Promise<ChatStore>;
  /** The same database past the store (its tables through Kysely; no migration run). Closed by cleanup. */
  dialect(): Dialect;
  /** The schema version the database records (SQLite: PRAGMA user_version; PostgreSQL: schema_migrations). */
  schemaVersion(): Promise<number>;
  /** Makes the database say it is at `version` (only the record: the tables stay as they are). */
  setSchemaVersion(version: number): Promise<void>;
  /** The database's layout, one line per table and index, comparable between two databases of one kind. */
  layout(): Promise<string[]>;
  /** Puts test/fixtures/store-v12 in the (empty) database: what the app wrote before the store was written once.
   *  Resolves with a copy of its data directory and the environment that opens it. */
  restoreFixture(): Promise<{ dataDir: string; env: Record<string, string> }>;
  /** Closes every store and dialect it opened and removes the database. */
  cleanup(): Promise<void>;
}
