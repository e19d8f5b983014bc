// Instances of the PostgreSQL store on one database, for tests of what instances sharing it do (leases, controls).
import { afterEach, beforeEach } from 'vitest';
import { openPostgresStore, type PostgresChatStore, type PostgresStoreOptions } from '../../lib/store';
import { freshDatabase, type TestDatabase } from './postgres';

/** Instances of the PostgreSQL store on a database of their own per test (no heartbeat on a timer: a test beats
 *  itself), closed after it. Call in a describe block. */
export function postgresInstances(prefix: string) {
  let db: TestDatabase;
  const opened: PostgresChatStore[] = [];
  beforeEach(async () => {
    db = await freshDatabase(prefix);
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close().catch(() => undefined);
    await db.drop();
  });
  return {
    url: () => db.url,
    async open(opts: PostgresStoreOptions = {}) {
      const store = await openPostgresStore(db.url, { maintenance: false, ...opts });
      opened.push(store);
      return store;
    },
  };
}
