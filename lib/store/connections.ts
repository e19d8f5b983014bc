// Model connections: servers added on the page, their encrypted keys, and what the user set and the servers taught
// about their models. A connection with no owner is server-wide (everyone reads it, only the server scope changes
// it); else only its owner reads or changes it, and the SQL says so.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { CapabilityHints } from '../llm/capabilities';
import type { Dialect } from './dialect';
import { cols, fromRow, insert, query, toJson } from './query';
import { NotFoundError } from './errors';
import type { Ctx } from './context';
import type { Tables } from './tables';
import type { ConnectionStore, StoredConnection } from './types';

/** Rows the owner reads: the server-wide ones and their own. */
const visible = (d: Dialect, owner: never) =>
  d.db
    .selectFrom('model_connections')
    .selectAll()
    .where((eb) => eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', owner)]));
/** The rows one scope changes: the owner's own, or (owner null) the server-wide ones. */
const own = (owner: never) => sql<boolean>`coalesce(owner_id, '') = coalesce(CAST(${owner} AS text), '')`;

const Q = {
  list: query((d, p) => visible(d, p('owner')).orderBy('created_at').orderBy(sql.ref(d.ord)), toConnection),
  one: query((d, p) => visible(d, p('owner')).where('id', '=', p('id')), toConnection),
  insert: insert('model_connections', { returning: '*', map: toConnection }),
  owned: query(
    (d, p) =>
      d.db
        .selectFrom('model_connections')
        .selectAll()
        .where('id', '=', p('id'))
        .where(own(p('owner')))
        .$if(d.rowLocks, (q) => q.forUpdate()),
    toConnection,
  ),
  update: query(
    (d, p) =>
      d.db
        .updateTable('model_connections')
        .set(cols(p, ['name', 'base_url', 'api_key_cipher', 'capabilities_json', 'rates_json', 'updated_at']))
        .where('id', '=', p('id'))
        .returningAll(),
    toConnection,
  ),
  remove: query((d, p) =>
    d.db
      .deleteFrom('model_connections')
      .where('id', '=', p('id'))
      .where(own(p('owner'))),
  ),
  forget: query((d, p) => d.db.deleteFrom('learned_capabilities').where('connection_id', '=', p('id'))),
  learned: query((d, p) =>
    d.db.selectFrom('learned_capabilities').select(['model', 'hints_json']).where('connection_id', '=', p('id')),
  ),
  // Merged in the database, so that two instances learning at once both count.
  learn: query((d, p) =>
    d.db
      .insertInto('learned_capabilities')
      .values({ connection_id: p('id'), model: p('model'), hints_json: p('hints') })
      .onConflict((oc) =>
        oc.columns(['connection_id', 'model']).doUpdateSet({
          hints_json: d.jsonMerge(sql`learned_capabilities.hints_json`, sql`excluded.hints_json`),
        }),
      ),
  ),
};

export function connectionStore(ctx: Ctx): ConnectionStore {
  const { db } = ctx;

  return {
    listConnections: (owner) => Q.list.all(ctx, db, { owner: owner.ownerId }),
    getConnection: (owner, id) => Q.one.first(ctx, db, { id, owner: owner.ownerId }),

    async addConnection(owner, input) {
      const at = ctx.now();
      const row = await Q.insert.first(ctx, db, {
        id: randomUUID(),
        owner_id: owner?.ownerId ?? null,
        name: input.name,
        base_url: input.baseURL,
        api_key_cipher: input.apiKeyCipher,
        capabilities_json: toJson(input.capabilities ?? {}),
        rates_json: toJson(input.rates ?? {}),
        created_at: at,
        updated_at: at,
      });
      return row!;
    },

    async updateConnection(owner, id, patch) {
      return ctx.write(async (db) => {
        const current = await Q.owned.first(ctx, db, { id, owner: owner?.ownerId ?? null });
        if (!current) throw new NotFoundError(`Unknown connection id "${id}".`);
        const updated = await Q.update.first(ctx, db, {
          id,
          name: patch.name ?? current.name,
          base_url: patch.baseURL ?? current.baseURL,
          api_key_cipher: patch.apiKeyCipher !== undefined ? patch.apiKeyCipher : current.apiKeyCipher,
          capabilities_json: toJson(patch.capabilities ?? current.capabilities),
          rates_json: toJson(patch.rates ?? current.rates),
          updated_at: ctx.now(),
        });
        return updated!;
      });
    },

    async removeConnection(owner, id) {
      return ctx.write(async (db) => {
        if (!(await Q.remove.run(ctx, db, { id, owner: owner?.ownerId ?? null }))) return false;
        await Q.forget.run(ctx, db, { id });
        return true;
      });
    },

    async learnedCapabilities(connectionId) {
      const rows = await Q.learned.all(ctx, db, { id: connectionId });
      return Object.fromEntries(rows.map((r) => [r.model, JSON.parse(r.hints_json) as CapabilityHints]));
    },

    async learnCapabilities(connectionId, model, hints) {
      await Q.learn.run(ctx, db, { id: connectionId, model, hints: toJson(hints) });
    },
  };
}

/** The columns that may be NULL stay null in the record (a server-wide connection, a server without a key). */
function toConnection({ owner_id, base_url, api_key_cipher, ...row }: Tables['model_connections']): StoredConnection {
  return { ...fromRow<StoredConnection>(row), ownerId: owner_id, baseURL: base_url, apiKeyCipher: api_key_cipher };
}
