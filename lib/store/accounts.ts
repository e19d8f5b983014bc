// The store's tables for accounts beside the accounts library's own (lib/auth keeps users and sessions in the same
// database): API keys (per owner, stored as hashes), invites and the server's settings (the admin's, no owner).
import { randomUUID } from 'node:crypto';
import type { Ctx } from './store';
import type { Tables } from './tables';
import type { AccountStore, ApiKeyRecord, InviteRecord, ServerSettings } from './types';

const KEY_COLUMNS = ['id', 'owner_id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at'] as const;
const INVITE_COLUMNS = ['id', 'created_by', 'created_at', 'expires_at', 'used_at', 'used_by', 'revoked_at'] as const;

export const DEFAULT_SERVER_SETTINGS: ServerSettings = {
  signUp: 'invite',
  userTools: { codeInterpreter: false, web: false },
};

export function accountStore(ctx: Ctx): AccountStore {
  const { db } = ctx;
  const keys = () => db.selectFrom('api_keys').select(KEY_COLUMNS);
  /** The invites still usable at `now`. */
  const open = (now: number) =>
    db
      .selectFrom('invites')
      .select(INVITE_COLUMNS)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now);

  async function serverSettings(): Promise<ServerSettings> {
    const rows = await db.selectFrom('server_settings').select(['key', 'value_json']).execute();
    const stored = new Map(rows.map((r) => [r.key, r.value_json]));
    const read = <K extends keyof ServerSettings>(key: K): ServerSettings[K] => {
      const json = stored.get(key);
      return json === undefined ? DEFAULT_SERVER_SETTINGS[key] : (JSON.parse(json) as ServerSettings[K]);
    };
    return { signUp: read('signUp'), userTools: { ...DEFAULT_SERVER_SETTINGS.userTools, ...read('userTools') } };
  }

  return {
    async createApiKey(owner, input) {
      const row = await db
        .insertInto('api_keys')
        .values({ id: randomUUID(), owner_id: owner.ownerId, ...input, created_at: ctx.now() })
        .returning(KEY_COLUMNS)
        .executeTakeFirstOrThrow();
      return toKey(row);
    },

    async listApiKeys(owner) {
      const rows = await keys()
        .where('owner_id', '=', owner.ownerId)
        .orderBy('created_at', 'desc')
        .orderBy(ctx.ord(), 'desc')
        .execute();
      return rows.map(toKey);
    },

    async revokeApiKey(owner, id) {
      const { numUpdatedRows } = await db
        .updateTable('api_keys')
        .set({ revoked_at: ctx.now() })
        .where('id', '=', id)
        .where('owner_id', '=', owner.ownerId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return numUpdatedRows > 0;
    },

    // Every owner's: how a request carrying a key finds whose it is.
    async apiKeyByHash(hash) {
      const row = await keys().where('hash', '=', hash).executeTakeFirst();
      return row && toKey(row);
    },

    async touchApiKey(id, at) {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },

    async createInvite(input) {
      const row = await db
        .insertInto('invites')
        .values({
          id: randomUUID(),
          hash: input.hash,
          created_by: input.createdBy,
          created_at: ctx.now(),
          expires_at: input.expiresAt,
        })
        .returning(INVITE_COLUMNS)
        .executeTakeFirstOrThrow();
      return toInvite(row);
    },

    async listOpenInvites(now) {
      const rows = await open(now).orderBy('created_at', 'desc').orderBy(ctx.ord(), 'desc').execute();
      return rows.map(toInvite);
    },

    async revokeInvite(id) {
      const { numUpdatedRows } = await db
        .updateTable('invites')
        .set({ revoked_at: ctx.now() })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return numUpdatedRows > 0;
    },

    async openInvite(hash, now) {
      const row = await open(now).where('hash', '=', hash).executeTakeFirst();
      return row && toInvite(row);
    },

    /** Once: an UPDATE that finds it still open, so two claims at once cannot both win. */
    async claimInvite(hash, userId, now) {
      const { numUpdatedRows } = await db
        .updateTable('invites')
        .set({ used_at: now, used_by: userId })
        .where('hash', '=', hash)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return numUpdatedRows > 0;
    },

    serverSettings,

    async updateServerSettings(patch) {
      await ctx.write(async (db) => {
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined) continue;
          await db
            .insertInto('server_settings')
            .values({ key, value_json: JSON.stringify(value) })
            .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value_json: eb.ref('excluded.value_json') })))
            .execute();
        }
      });
      return serverSettings();
    },
  };
}

function toKey(row: Omit<Tables['api_keys'], 'hash'>): ApiKeyRecord {
  const key: ApiKeyRecord = {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at,
  };
  if (row.last_used_at !== null) key.lastUsedAt = row.last_used_at;
  if (row.revoked_at !== null) key.revokedAt = row.revoked_at;
  return key;
}

function toInvite(row: Omit<Tables['invites'], 'hash'>): InviteRecord {
  const invite: InviteRecord = {
    id: row.id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
  if (row.used_at !== null) invite.usedAt = row.used_at;
  if (row.used_by !== null) invite.usedBy = row.used_by;
  if (row.revoked_at !== null) invite.revokedAt = row.revoked_at;
  return invite;
}
