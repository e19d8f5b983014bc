// The ChatStore over a dialect's database: the schema brought up to date (migrations.ts), then one object made of
// the aggregates, each written once (conversations, runs, the Runs page's index, documents, connections, agents,
// accounts). Every aggregate gets the same context: the database, the dialect, the clock and transactions.
import { accountStore } from './accounts';
import { chunkVectorStore } from './chunk-vectors';
import { adoptAgents, agentStore } from './agents';
import { connectionStore } from './connections';
import { conversationStore } from './conversations';
import type { Ctx } from './context';
import type { Dialect } from './dialect';
import { documentStore } from './documents';
import { MIGRATIONS } from './migrations';
import { LOCAL_OWNER_ID } from './owner';
import { type BusOptions, SharedRunBus } from './run-bus';
import { runSearch } from './run-index';
import { indexUnindexed, runStore } from './runs';
import { defaultSettings } from './settings';
import type { ChatStore, ConversationSettings } from './types';

export type { Ctx } from './context';

export interface StoreOptions extends BusOptions {
  /** The settings of a conversation made without any (and of fields added since a row was written). */
  defaults?: ConversationSettings;
}

/** The store on `d`, its schema brought up to date; runs that ended before the Runs index existed (or whose summary a
 *  migration dropped) are indexed now, under the migrations' lock (instances starting at once index each once). */
export async function createStore(d: Dialect, opts: StoreOptions = {}): Promise<ChatStore> {
  try {
    await d.migrate(
      MIGRATIONS.map((step) => step(d.ddl)),
      (db) => indexUnindexed({ d }, db),
    );
    const bus = d.bus && (await SharedRunBus.start(d.db, d.bus, opts));
    let lastNow = 0;
    const ctx: Ctx = {
      d,
      db: d.db,
      defaults: opts.defaults ?? defaultSettings(),
      bus,
      now() {
        const t = Date.now();
        lastNow = t > lastNow ? t : lastNow + 1;
        return lastNow;
      },
      write: (fn) => d.db.transaction().execute(fn),
      read: (fn) => d.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn),
    };
    const search = runSearch(d);
    const store: ChatStore = {
      ...conversationStore(ctx),
      ...runStore(ctx),
      ...documentStore(ctx),
      ...connectionStore(ctx),
      ...agentStore(ctx),
      ...accountStore(ctx),
      ...chunkVectorStore(ctx),
      ...search,
      /** The local owner's conversations, agents and their runs' index rows (which carry a copy of the owner). */
      async adoptLocalData(owner) {
        if (owner.ownerId === LOCAL_OWNER_ID) return 0;
        return ctx.write(async (db) => {
          await adoptAgents(db, LOCAL_OWNER_ID, owner.ownerId);
          const { numUpdatedRows } = await db
            .updateTable('conversations')
            .set({ owner_id: owner.ownerId })
            .where('owner_id', '=', LOCAL_OWNER_ID)
            .executeTakeFirst();
          await db
            .updateTable('run_summaries')
            .set({ owner_id: owner.ownerId })
            .where('owner_id', '=', LOCAL_OWNER_ID)
            .execute();
          return Number(numUpdatedRows);
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
