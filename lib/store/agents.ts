// The agents users saved, each definition kept whole as JSON, and which uploads their documents hold
// (agent_documents: a file an agent holds is its owner's, and its bytes stay while one holds them). Every query
// filters by the owner, so another user's agent reads as unknown.
import { randomUUID } from 'node:crypto';
import type { Db } from './dialect';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import type { Ctx } from './store';
import type { Tables } from './tables';
import type { AgentDefinition, AgentStore, SavedAgent } from './types';

const COLUMNS = ['id', 'definition_json', 'created_at', 'updated_at'] as const;

export function agentStore(ctx: Ctx): AgentStore {
  const { db } = ctx;

  /** Which uploads the agent's documents hold, rewritten with its definition, in its transaction. */
  async function holdDocuments(db: Db, owner: OwnerScope, id: string, definition: AgentDefinition) {
    await db.deleteFrom('agent_documents').where('agent_id', '=', id).execute();
    const hashes = [...new Set((definition.documents ?? []).map((doc) => doc.hash))];
    if (hashes.length)
      await db
        .insertInto('agent_documents')
        .values(hashes.map((hash) => ({ agent_id: id, owner_id: owner.ownerId, hash })))
        .execute();
  }

  return {
    async createAgent(owner, definition) {
      const at = ctx.now();
      return ctx.write(async (db) => {
        const row = await db
          .insertInto('agents')
          .values({
            id: randomUUID(),
            owner_id: owner.ownerId,
            name: definition.name,
            definition_json: JSON.stringify(definition),
            created_at: at,
            updated_at: at,
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        await holdDocuments(db, owner, row.id, definition);
        return toAgent(row);
      });
    },

    async getAgent(owner, id) {
      const row = await db
        .selectFrom('agents')
        .select(COLUMNS)
        .where('id', '=', id)
        .where('owner_id', '=', owner.ownerId)
        .executeTakeFirst();
      return row && toAgent(row);
    },

    /** By lower-cased name, then oldest first. */
    async listAgents(owner) {
      const rows = await db
        .selectFrom('agents')
        .select(COLUMNS)
        .select('name')
        .where('owner_id', '=', owner.ownerId)
        .orderBy('created_at')
        .orderBy(ctx.ord())
        .execute();
      const key = (name: string) => name.toLowerCase();
      return rows.sort((a, b) => (key(a.name) < key(b.name) ? -1 : key(a.name) > key(b.name) ? 1 : 0)).map(toAgent);
    },

    async updateAgent(owner, id, definition) {
      return ctx.write(async (db) => {
        const row = await db
          .updateTable('agents')
          .set({ name: definition.name, definition_json: JSON.stringify(definition), updated_at: ctx.now() })
          .where('id', '=', id)
          .where('owner_id', '=', owner.ownerId)
          .returning(COLUMNS)
          .executeTakeFirst();
        if (!row) throw new NotFoundError(`Unknown agent id "${id}".`);
        await holdDocuments(db, owner, id, definition);
        return toAgent(row);
      });
    },

    async deleteAgent(owner, id) {
      const { numDeletedRows } = await db
        .deleteFrom('agents')
        .where('id', '=', id)
        .where('owner_id', '=', owner.ownerId)
        .executeTakeFirst();
      return numDeletedRows > 0;
    },
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
