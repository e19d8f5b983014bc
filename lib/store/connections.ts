// Model connections: servers added on the page, their encrypted keys, and what the user set and the servers taught
// about their models. A connection with no owner is server-wide (everyone reads it, only the server scope changes
// it); else only its owner reads or changes it, and the SQL says so.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { CapabilityHints } from '../llm/capabilities';
import type { ModelRates } from '../llm/cost';
import type { Db } from './dialect';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import type { Ctx } from './store';
import type { Tables } from './tables';
import type { ConnectionStore, StoredConnection } from './types';

const COLUMNS = [
  'id',
  'owner_id',
  'name',
  'base_url',
  'api_key_cipher',
  'capabilities_json',
  'rates_json',
  'created_at',
  'updated_at',
] as const;

export function connectionStore(ctx: Ctx): ConnectionStore {
  const { db } = ctx;
  /** The rows one scope changes: the owner's own, or (null) the server-wide ones. */
  const own = (db: Db, owner: OwnerScope | null) =>
    db
      .selectFrom('model_connections')
      .where('owner_id', owner ? '=' : 'is', owner ? owner.ownerId : null)
      .select(COLUMNS);
  const visible = (owner: OwnerScope) =>
    db
      .selectFrom('model_connections')
      .select(COLUMNS)
      .where((eb) => eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', owner.ownerId)]));

  return {
    async listConnections(owner) {
      const rows = await visible(owner).orderBy('created_at').orderBy(ctx.ord()).execute();
      return rows.map(toConnection);
    },

    async getConnection(owner, id) {
      const row = await visible(owner).where('id', '=', id).executeTakeFirst();
      return row && toConnection(row);
    },

    async addConnection(owner, input) {
      const at = ctx.now();
      const row = await db
        .insertInto('model_connections')
        .values({
          id: randomUUID(),
          owner_id: owner?.ownerId ?? null,
          name: input.name,
          base_url: input.baseURL,
          api_key_cipher: input.apiKeyCipher,
          capabilities_json: JSON.stringify(input.capabilities ?? {}),
          rates_json: JSON.stringify(input.rates ?? {}),
          created_at: at,
          updated_at: at,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toConnection(row);
    },

    async updateConnection(owner, id, patch) {
      return ctx.write(async (db) => {
        const row = await own(db, owner)
          .where('id', '=', id)
          .$if(ctx.d.rowLocks, (q) => q.forUpdate())
          .executeTakeFirst();
        if (!row) throw new NotFoundError(`Unknown connection id "${id}".`);
        const current = toConnection(row);
        const updated = await db
          .updateTable('model_connections')
          .set({
            name: patch.name ?? current.name,
            base_url: patch.baseURL ?? current.baseURL,
            api_key_cipher: patch.apiKeyCipher !== undefined ? patch.apiKeyCipher : current.apiKeyCipher,
            capabilities_json: JSON.stringify(patch.capabilities ?? current.capabilities),
            rates_json: JSON.stringify(patch.rates ?? current.rates),
            updated_at: ctx.now(),
          })
          .where('id', '=', id)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toConnection(updated);
      });
    },

    /** The connection and what was learnt of its models, together. */
    async removeConnection(owner, id) {
      return ctx.write(async (db) => {
        const { numDeletedRows } = await db
          .deleteFrom('model_connections')
          .where('id', '=', id)
          .where('owner_id', owner ? '=' : 'is', owner ? owner.ownerId : null)
          .executeTakeFirst();
        if (!numDeletedRows) return false;
        await db.deleteFrom('learned_capabilities').where('connection_id', '=', id).execute();
        return true;
      });
    },

    async learnedCapabilities(connectionId) {
      const rows = await db
        .selectFrom('learned_capabilities')
        .select(['model', 'hints_json'])
        .where('connection_id', '=', connectionId)
        .execute();
      return Object.fromEntries(rows.map((r) => [r.model, JSON.parse(r.hints_json) as CapabilityHints]));
    },

    /** Merged in the database, so that two instances learning at once both count. */
    async learnCapabilities(connectionId, model, hints) {
      await db
        .insertInto('learned_capabilities')
        .values({ connection_id: connectionId, model, hints_json: JSON.stringify(hints) })
        .onConflict((oc) =>
          oc.columns(['connection_id', 'model']).doUpdateSet({
            hints_json: ctx.d.jsonMerge(sql`learned_capabilities.hints_json`, sql`excluded.hints_json`),
          }),
        )
        .execute();
    },
  };
}

function toConnection(row: Tables['model_connections']): StoredConnection {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    baseURL: row.base_url,
    apiKeyCipher: row.api_key_cipher,
    capabilities: JSON.parse(row.capabilities_json) as Record<string, CapabilityHints>,
    rates: JSON.parse(row.rates_json) as Record<string, ModelRates>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
