// The agents users saved, each definition kept whole as JSON, and which uploads their documents hold
// (agent_documents: a file an agent holds is its owner's, and its bytes stay while one holds them).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { byText } from './dialect';
import { cols, insert, query } from './query';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import type { Ctx } from './context';
import type { Tables } from './tables';
import type { AgentDefinition, AgentStore, SavedAgent } from './types';

const COLUMNS = ['id', 'definition_json', 'created_at', 'updated_at'] as const;

const Q = {
  insert: insert('agents', { returning: COLUMNS, map: toAgent }),
  one: query(
    (d, p) => d.db.selectFrom('agents').select(COLUMNS).where('id', '=', p('id')).where('owner_id', '=', p('owner')),
    toAgent,
  ),
  // Oldest first; by name in the store (the same order whatever the database's collation).
  all: query(
    (d, p) =>
      d.db
        .selectFrom('agents')
        .select(COLUMNS)
        .where('owner_id', '=', p('owner'))
        .orderBy('created_at')
        .orderBy(sql.ref(d.ord)),
    toAgent,
  ),
  update: query(
    (d, p) =>
      d.db
        .updateTable('agents')
        .set(cols(p, ['name', 'definition_json', 'updated_at']))
        .where('id', '=', p('id'))
        .where('owner_id', '=', p('owner_id'))
        .returning(COLUMNS),
    toAgent,
  ),
  delete: query((d, p) => d.db.deleteFrom('agents').where('id', '=', p('id')).where('owner_id', '=', p('owner'))),
  drop: query((d, p) => d.db.deleteFrom('agent_documents').where('agent_id', '=', p('id'))),
  hold: insert('agent_documents'),
};

export function agentStore(ctx: Ctx): AgentStore {
  const { db } = ctx;

  /** Writes the agent (`write`: inserts or updates its row) and which uploads its documents hold, together. */
  function save(owner: OwnerScope, id: string, definition: AgentDefinition, write: typeof Q.update.first) {
    return ctx.write(async (db) => {
      const row = { id, owner_id: owner.ownerId, name: definition.name, definition_json: JSON.stringify(definition) };
      const at = ctx.now();
      const agent = await write(ctx, db, { ...row, created_at: at, updated_at: at });
      if (!agent) throw new NotFoundError(`Unknown agent id "${id}".`);
      await Q.drop.run(ctx, db, { id });
      for (const hash of new Set((definition.documents ?? []).map((doc) => doc.hash)))
        await Q.hold.run(ctx, db, { agent_id: id, owner_id: owner.ownerId, hash });
      return agent;
    });
  }

  return {
    createAgent: (owner, definition) => save(owner, randomUUID(), definition, Q.insert.first),
    getAgent: (owner, id) => Q.one.first(ctx, db, { id, owner: owner.ownerId }),
    listAgents: async (owner) =>
      (await Q.all.all(ctx, db, { owner: owner.ownerId })).sort((a, b) =>
        byText(a.name.toLowerCase(), b.name.toLowerCase()),
      ),
    updateAgent: (owner, id, definition) => save(owner, id, definition, Q.update.first),
    deleteAgent: async (owner, id) => (await Q.delete.run(ctx, db, { id, owner: owner.ownerId })) > 0,
  };
}

function toAgent(row: Omit<Tables['agents'], 'owner_id' | 'name'>): SavedAgent {
  const definition = JSON.parse(row.definition_json) as AgentDefinition;
  return { ...definition, id: row.id, createdAt: row.created_at, updatedAt: row.updated_at };
}
