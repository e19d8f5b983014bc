// The SQLite store's tables for accounts beside the accounts library's own (lib/auth keeps users and sessions): API
// keys (per owner, stored as hashes), invites and the server's settings (the admin's, no owner).
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { OwnerScope } from './owner';
import type { AccountStore, ApiKeyRecord, InviteRecord, ServerSettings } from './types';

export interface ApiKeyRow {
  id: string;
  owner_id: string;
  name: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface InviteRow {
  id: string;
  created_by: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  used_by: string | null;
  revoked_at: number | null;
}

const KEY_COLUMNS = 'id, owner_id, name, prefix, created_at, last_used_at, revoked_at';
const INVITE_COLUMNS = 'id, created_by, created_at, expires_at, used_at, used_by, revoked_at';

export const DEFAULT_SERVER_SETTINGS: ServerSettings = {
  signUp: 'invite',
  userTools: { codeInterpreter: false, web: false },
};

export function toKey(row: ApiKeyRow): ApiKeyRecord {
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

export function toInvite(row: InviteRow): InviteRecord {
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

/** The server's settings from their stored JSON values (a key never set reads as its default). */
export function settingsFrom(stored: (key: keyof ServerSettings) => string | undefined): ServerSettings {
  const read = <K extends keyof ServerSettings>(key: K): ServerSettings[K] => {
    const json = stored(key);
    return json === undefined ? DEFAULT_SERVER_SETTINGS[key] : (JSON.parse(json) as ServerSettings[K]);
  };
  const settings: ServerSettings = {
    signUp: read('signUp'),
    userTools: { ...DEFAULT_SERVER_SETTINGS.userTools, ...read('userTools') },
  };
  const webSearch = stored('webSearch');
  if (webSearch !== undefined) settings.webSearch = JSON.parse(webSearch) as ServerSettings['webSearch'];
  return settings;
}

export class SqliteAccounts implements AccountStore {
  private readonly sql;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    const p = <Params extends unknown[], Row = unknown>(source: string) => db.prepare<Params, Row>(source);
    const OPEN = 'used_at IS NULL AND revoked_at IS NULL AND expires_at > ?';
    this.sql = {
      insertKey: p<[string, string, string, string, string, number]>(
        'INSERT INTO api_keys (id, owner_id, name, prefix, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      key: p<[string, string], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ? AND owner_id = ?`),
      keysOf: p<[string], ApiKeyRow>(
        `SELECT ${KEY_COLUMNS} FROM api_keys WHERE owner_id = ? ORDER BY created_at DESC, rowid DESC`,
      ),
      revokeKey: p<[number, string, string]>(
        'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND owner_id = ? AND revoked_at IS NULL',
      ),
      keyByHash: p<[string], ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = ?`),
      touchKey: p<[number, string]>('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),

      insertInvite: p<[string, string, string, number, number]>(
        'INSERT INTO invites (id, hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      ),
      invite: p<[string], InviteRow>(`SELECT ${INVITE_COLUMNS} FROM invites WHERE id = ?`),
      openInvites: p<[number], InviteRow>(
        `SELECT ${INVITE_COLUMNS} FROM invites WHERE ${OPEN} ORDER BY created_at DESC, rowid DESC`,
      ),
      openInvite: p<[string, number], InviteRow>(`SELECT ${INVITE_COLUMNS} FROM invites WHERE hash = ? AND ${OPEN}`),
      revokeInvite: p<[number, string]>(
        'UPDATE invites SET revoked_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL',
      ),
      claimInvite: p<[number, string, string, number]>(
        `UPDATE invites SET used_at = ?, used_by = ? WHERE hash = ? AND ${OPEN}`,
      ),

      setting: p<[string], { value_json: string }>('SELECT value_json FROM server_settings WHERE key = ?'),
      putSetting: p<[string, string]>(
        `INSERT INTO server_settings (key, value_json) VALUES (?, ?)
           ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json`,
      ),
    };
  }

  async createApiKey(owner: OwnerScope, input: { name: string; prefix: string; hash: string }): Promise<ApiKeyRecord> {
    const id = randomUUID();
    this.sql.insertKey.run(id, owner.ownerId, input.name, input.prefix, input.hash, this.now());
    return toKey(this.sql.key.get(id, owner.ownerId)!);
  }

  async listApiKeys(owner: OwnerScope): Promise<ApiKeyRecord[]> {
    return this.sql.keysOf.all(owner.ownerId).map(toKey);
  }

  async revokeApiKey(owner: OwnerScope, id: string): Promise<boolean> {
    return this.sql.revokeKey.run(this.now(), id, owner.ownerId).changes > 0;
  }

  async apiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.sql.keyByHash.get(hash);
    return row && toKey(row);
  }

  async touchApiKey(id: string, at: number): Promise<void> {
    this.sql.touchKey.run(at, id);
  }

  async createInvite(input: { hash: string; createdBy: string; expiresAt: number }): Promise<InviteRecord> {
    const id = randomUUID();
    this.sql.insertInvite.run(id, input.hash, input.createdBy, this.now(), input.expiresAt);
    return toInvite(this.sql.invite.get(id)!);
  }

  async listOpenInvites(now: number): Promise<InviteRecord[]> {
    return this.sql.openInvites.all(now).map(toInvite);
  }

  async revokeInvite(id: string): Promise<boolean> {
    return this.sql.revokeInvite.run(this.now(), id).changes > 0;
  }

  async openInvite(hash: string, now: number): Promise<InviteRecord | undefined> {
    const row = this.sql.openInvite.get(hash, now);
    return row && toInvite(row);
  }

  async claimInvite(hash: string, userId: string, now: number): Promise<boolean> {
    return this.sql.claimInvite.run(now, userId, hash, now).changes > 0;
  }

  async serverSettings(): Promise<ServerSettings> {
    return settingsFrom((key) => this.sql.setting.get(key)?.value_json);
  }

  async updateServerSettings(patch: Partial<ServerSettings>): Promise<ServerSettings> {
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(patch))
        if (value !== undefined) this.sql.putSetting.run(key, JSON.stringify(value));
    })();
    return this.serverSettings();
  }
}
