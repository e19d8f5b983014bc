// The store's tables for accounts beside the accounts library's own (lib/auth keeps users and sessions in the same
// database): API keys (per owner, stored as hashes), invites and the server's settings (the admin's, no owner).
import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from './dialect';
import { fromRow, insert, query } from './query';
import type { Ctx } from './context';
import type { AccountStore, ApiKeyRecord, InviteRecord, ServerSettings } from './types';

const KEY_COLUMNS = ['id', 'owner_id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'] as const;
const INVITE_COLUMNS = ['id', 'created_by', 'created_at', 'expires_at', 'used_at', 'used_by', 'revoked_at'] as const;

/** Revokes the row `p('id')` of `table` if it is not revoked already and `also` holds. */
function revoke(table: 'api_keys' | 'invites', also: (p: (name: string) => never) => RawBuilder<boolean>) {
  return query((d, p) =>
    d.db
      .updateTable(table)
      .set({ revoked_at: p('at') })
      .where('id', '=', p('id'))
      .where('revoked_at', 'is', null)
      .where(also(p)),
  );
}

/** The invite is still usable at `now`: for listing, looking up and claiming alike. */
const usable = (now: never) => sql<boolean>`used_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}`;
const open = (d: Dialect, now: never) => d.db.selectFrom('invites').where(usable(now));

const Q = {
  insertKey: insert('api_keys', { returning: KEY_COLUMNS, map: fromRow<ApiKeyRecord> }),
  keys: query(
    (d, p) =>
      d.db
        .selectFrom('api_keys')
        .select(KEY_COLUMNS)
        .where('owner_id', '=', p('owner'))
        .orderBy('created_at', 'desc')
        .orderBy(sql.ref(d.ord), 'desc'),
    fromRow<ApiKeyRecord>,
  ),
  revokeKey: revoke('api_keys', (p) => sql`owner_id = ${p('owner')}`),
  // Every owner's: how a request carrying a key finds whose it is.
  keyByHash: query(
    (d, p) => d.db.selectFrom('api_keys').select(KEY_COLUMNS).where('hash', '=', p('hash')),
    fromRow<ApiKeyRecord>,
  ),
  touchKey: query((d, p) =>
    d.db
      .updateTable('api_keys')
      .set({ last_used_at: p('at') })
      .where('id', '=', p('id')),
  ),
  insertInvite: insert('invites', { returning: INVITE_COLUMNS, map: fromRow<InviteRecord> }),
  openInvites: query(
    (d, p) => open(d, p('now')).select(INVITE_COLUMNS).orderBy('created_at', 'desc').orderBy(sql.ref(d.ord), 'desc'),
    fromRow<InviteRecord>,
  ),
  openInvite: query(
    (d, p) => open(d, p('now')).select(INVITE_COLUMNS).where('hash', '=', p('hash')),
    fromRow<InviteRecord>,
  ),
  revokeInvite: revoke('invites', () => sql`used_at IS NULL`),
  // Once: an UPDATE that finds it still open, so two claims at once cannot both win.
  claimInvite: query((d, p) =>
    d.db
      .updateTable('invites')
      .set({ used_at: p('now'), used_by: p('user') })
      .where('hash', '=', p('hash'))
      .where(usable(p('now'))),
  ),
  settings: query((d) => d.db.selectFrom('server_settings').select(['key', 'value_json'])),
  attempts: query((d, p) =>
    d.db
      .selectFrom('auth_attempts')
      .select('at')
      .where('kind', '=', p('kind'))
      .where('key', '=', p('key'))
      .where('at', '>', p('since'))
      .orderBy('at'),
  ),
  addAttempt: insert('auth_attempts'),
  forgetAttempts: query((d, p) =>
    d.db.deleteFrom('auth_attempts').where('kind', '=', p('kind')).where('at', '<=', p('until')),
  ),
  putSetting: insert('server_settings', { upsert: ['key'] }),
};

export function accountStore(ctx: Ctx): AccountStore {
  const { db } = ctx;

  async function serverSettings(): Promise<ServerSettings> {
    const rows = await Q.settings.all(ctx, db);
    const { signUp, userTools, webSearch } = Object.fromEntries(
      rows.map((r) => [r.key, JSON.parse(r.value_json) as unknown]),
    ) as Partial<ServerSettings>;
    return {
      signUp: signUp ?? 'invite',
      userTools: { codeInterpreter: false, web: false, ...userTools },
      ...(webSearch !== undefined && { webSearch }),
    };
  }

  return {
    async createApiKey(owner, { name, prefix, hash }) {
      const values = { id: randomUUID(), owner_id: owner.ownerId, name, prefix, hash, created_at: ctx.now() };
      return (await Q.insertKey.first(ctx, db, values))!;
    },
    listApiKeys: (owner) => Q.keys.all(ctx, db, { owner: owner.ownerId }),
    revokeApiKey: async (owner, id) =>
      (await Q.revokeKey.run(ctx, db, { id, owner: owner.ownerId, at: ctx.now() })) > 0,
    apiKeyByHash: (hash) => Q.keyByHash.first(ctx, db, { hash }),
    async touchApiKey(id, at) {
      await Q.touchKey.run(ctx, db, { id, at });
    },

    async createInvite({ hash, createdBy, expiresAt }) {
      const values = { id: randomUUID(), hash, created_by: createdBy, created_at: ctx.now(), expires_at: expiresAt };
      return (await Q.insertInvite.first(ctx, db, values))!;
    },
    listOpenInvites: (now) => Q.openInvites.all(ctx, db, { now }),
    revokeInvite: async (id) => (await Q.revokeInvite.run(ctx, db, { id, at: ctx.now() })) > 0,
    openInvite: (hash, now) => Q.openInvite.first(ctx, db, { hash, now }),
    claimInvite: async (hash, user, now) => (await Q.claimInvite.run(ctx, db, { hash, user, now })) > 0,

    serverSettings,
    async updateServerSettings(patch) {
      await ctx.write(async (db) => {
        for (const [key, value] of Object.entries(patch))
          if (value !== undefined) await Q.putSetting.run(ctx, db, { key, value_json: JSON.stringify(value) });
      });
      return serverSettings();
    },

    attemptsSince: async (kind, key, since) => (await Q.attempts.all(ctx, db, { kind, key, since })).map((r) => r.at),
    async addAttempt(kind, key, at, forgetUntil) {
      await ctx.write(async (db) => {
        await Q.forgetAttempts.run(ctx, db, { kind, until: forgetUntil });
        await Q.addAttempt.run(ctx, db, { kind, key, at });
      });
    },
  };
}
