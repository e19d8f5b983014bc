// The agents users saved, each definition kept whole as JSON, and which uploads their documents hold
// (agent_documents: a file an agent holds is its owner's, and its bytes stay while one holds them). A deleted agent
// leaves the Routers and GroupChats that held it in the same transaction.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { byText } from './dialect';
import { cols, insert, query } from './query';
import { CodedError } from '../protocol/errors';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import type { Ctx } from './context';
import type { Tables } from './tables';
import type { AgentDefinition, AgentStore, SavedAgent } from './types';

const COLUMNS = ['id', 'definition_json', 'created_at', 'updated_at'] as const;

/** The owner's agents, oldest first (by name in the store: the same order whatever the database's collation);
 *  `lock`: their rows locked (PostgreSQL) for a delete that rewrites those holding it. */
function ofOwner(lock: boolean) {
  return query(
    (d, p) =>
      d.db
        .selectFrom('agents')
        .select(COLUMNS)
        .where('owner_id', '=', p('owner'))
        .orderBy('created_at')
        .orderBy(sql.ref(d.ord))
        .$if(lock && d.rowLocks, (q) => q.forUpdate()),
    toAgent,
  );
}

const Q = {
  insert: insert('agents', { returning: COLUMNS, map: toAgent }),
  one: query(
    (d, p) => d.db.selectFrom('agents').select(COLUMNS).where('id', '=', p('id')).where('owner_id', '=', p('owner')),
    toAgent,
  ),
  all: ofOwner(false),
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
  owned: ofOwner(true),
  delete: query((d, p) => d.db.deleteFrom('agents').where('id', '=', p('id')).where('owner_id', '=', p('owner'))),
  deleteAll: query((d, p) => d.db.deleteFrom('agents').where('owner_id', '=', p('owner'))),
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
    deleteAgent: (owner, id) =>
      ctx.write(async (db) => {
        const agents = await Q.owned.all(ctx, db, { owner: owner.ownerId });
        const agent = agents.find((a) => a.id === id);
        if (!agent) return false;
        const holders = agents.filter((a) => a.id !== id && a.members.includes(id));
        // A Router or GroupChat needs a member: one that would be left with none keeps it (nothing changes).
        const emptied = holders.filter((h) => h.members.every((m) => m === id)).map((h) => h.name);
        const held = emptied.join(', ');
        if (emptied.length)
          throw new CodedError(
            'agent-only-member',
            `“${agent.name}” is the only member of ${held}: add another member there, or delete ${held} first.`,
            { name: agent.name, holders: held },
            409,
          );
        const at = ctx.now();
        for (const { id: holder, createdAt: _c, updatedAt: _u, ...definition } of holders) {
          const members = definition.members.filter((m) => m !== id);
          const json = JSON.stringify({ ...definition, members });
          await Q.update.run(ctx, db, {
            id: holder,
            name: definition.name,
            owner_id: owner.ownerId,
            definition_json: json,
            updated_at: at,
          });
        }
        return (await Q.delete.run(ctx, db, { id, owner: owner.ownerId })) > 0;
      }),
    deleteAllAgents: (owner) => ctx.write((db) => Q.deleteAll.run(ctx, db, { owner: owner.ownerId })),
  };
}

function toAgent(row: Omit<Tables['agents'], 'owner_id' | 'name'>): SavedAgent {
  const definition = JSON.parse(row.definition_json) as AgentDefinition;
  return { ...definition, id: row.id, createdAt: row.created_at, updatedAt: row.updated_at };
}
