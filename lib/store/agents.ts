// The agents users saved, each definition kept whole as JSON, and which uploads their documents hold
// (agent_documents: a file an agent holds is its owner's, and its bytes stay while one holds them). Every query
// filters by the owner, so another user's agent reads as unknown.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './dialect';
import { cols, query } from './query';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import type { Ctx } from './context';
import type { Tables } from './tables';
import type { AgentDefinition, AgentStore, SavedAgent } from './types';

const COLUMNS = ['id', 'definition_json', 'created_at', 'updated_at'] as const;

const Q = {
  insert: query((d, p) =>
    d.db
      .insertInto('agents')
      .values(cols(p, ['id', 'owner_id', 'name', 'definition_json', 'created_at', 'updated_at']))
      .returning(COLUMNS),
  ),
  one: query((d, p) =>
    d.db.selectFrom('agents').select(COLUMNS).where('id', '=', p('id')).where('owner_id', '=', p('owner')),
  ),
  // Oldest first; by name in the store (the same order whatever the database's collation).
  all: query((d, p) =>
    d.db
      .selectFrom('agents')
      .select([...COLUMNS, 'name'])
      .where('owner_id', '=', p('owner'))
      .orderBy('created_at')
      .orderBy(sql.ref(d.ord)),
  ),
  update: query((d, p) =>
    d.db
      .updateTable('agents')
      .set(cols(p, ['name', 'definition_json', 'updated_at']))
      .where('id', '=', p('id'))
      .where('owner_id', '=', p('owner_id'))
      .returning(COLUMNS),
  ),
  delete: query((d, p) => d.db.deleteFrom('agents').where('id', '=', p('id')).where('owner_id', '=', p('owner'))),
  drop: query((d, p) => d.db.deleteFrom('agent_documents').where('agent_id', '=', p('id'))),
  hold: query((d, p) =>
    d.db.insertInto('agent_documents').values({ agent_id: p('id'), owner_id: p('owner'), hash: p('hash') }),
  ),
};

export function agentStore(ctx: Ctx): AgentStore {
  const { db } = ctx;

  /** Which uploads the agent's documents hold, rewritten with its definition, in its transaction. */
  async function holdDocuments(db: Db, owner: OwnerScope, id: string, definition: AgentDefinition) {
    await Q.drop.run(ctx, db, { id });
    for (const hash of new Set((definition.documents ?? []).map((doc) => doc.hash)))
      await Q.hold.run(ctx, db, { id, owner: owner.ownerId, hash });
  }

  return {
    async createAgent(owner, definition) {
      const at = ctx.now();
      return ctx.write(async (db) => {
        const values = { id: randomUUID(), owner_id: owner.ownerId, name: definition.name, created_at: at };
        const json = JSON.stringify(definition);
        const row = (await Q.insert.first(ctx, db, { ...values, definition_json: json, updated_at: at }))!;
        await holdDocuments(db, owner, row.id, definition);
        return toAgent(row);
      });
    },

    async getAgent(owner, id) {
      const row = await Q.one.first(ctx, db, { id, owner: owner.ownerId });
      return row && toAgent(row);
    },

    /** By lower-cased name, then oldest first. */
    async listAgents(owner) {
      const key = (row: { name: string }) => row.name.toLowerCase();
      const rows = await Q.all.all(ctx, db, { owner: owner.ownerId });
      return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map(toAgent);
    },

    async updateAgent(owner, id, definition) {
      return ctx.write(async (db) => {
        const values = { id, owner_id: owner.ownerId, name: definition.name, updated_at: ctx.now() };
        const row = await Q.update.first(ctx, db, { ...values, definition_json: JSON.stringify(definition) });
        if (!row) throw new NotFoundError(`Unknown agent id "${id}".`);
        await holdDocuments(db, owner, id, definition);
        return toAgent(row);
      });
    },

    deleteAgent: async (owner, id) => (await Q.delete.run(ctx, db, { id, owner: owner.ownerId })) > 0,
  };
}

/** The built-in local owner's agents become `owner`'s (ChatStore.adoptLocalData), in its transaction. */
export async function adoptAgents(db: Db, from: string, to: string): Promise<void> {
  await db.updateTable('agent_documents').set({ owner_id: to }).where('owner_id', '=', from).execute();
  await db.updateTable('agents').set({ owner_id: to }).where('owner_id', '=', from).execute();
}

function toAgent(row: Omit<Tables['agents'], 'owner_id' | 'name'>): SavedAgent {
  const definition = JSON.parse(row.definition_json) as AgentDefinition;
  return { ...definition, id: row.id, createdAt: row.created_at, updatedAt: row.updated_at };
}
