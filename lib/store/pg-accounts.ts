// The PostgreSQL store's tables for accounts beside the accounts library's own (lib/auth keeps users and sessions in
// the same database, through the store's pool): API keys (per owner, stored as hashes), invites and the server's
// settings (the admin's, no owner). The same records as SQLite's (accounts.ts).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { settingsFrom, toInvite, toKey, type ApiKeyRow, type InviteRow } from './accounts';
import type { OwnerScope } from './owner';
import { run, type PgStatement } from './pg-statements';
import type { AccountStore, ApiKeyRecord, InviteRecord, ServerSettings } from './types';

export class PgAccounts implements AccountStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number,
  ) {}

  private q<Row extends pg.QueryResultRow>(
    name: PgStatement,
    values: unknown[],
    db: pg.Pool | pg.PoolClient = this.pool,
  ) {
    return run<Row>(db, name, values);
  }

  async createApiKey(owner: OwnerScope, input: { name: string; prefix: string; hash: string }): Promise<ApiKeyRecord> {
    const values = [randomUUID(), owner.ownerId, input.name, input.prefix, input.hash, this.now()];
    return toKey((await this.q<ApiKeyRow>('insertKey', values)).rows[0]!);
  }

  async listApiKeys(owner: OwnerScope): Promise<ApiKeyRecord[]> {
    return (await this.q<ApiKeyRow>('keysOf', [owner.ownerId])).rows.map(toKey);
  }

  async revokeApiKey(owner: OwnerScope, id: string): Promise<boolean> {
    return ((await this.q('revokeKey', [this.now(), id, owner.ownerId])).rowCount ?? 0) > 0;
  }

  async apiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = (await this.q<ApiKeyRow>('keyByHash', [hash])).rows[0];
    return row && toKey(row);
  }

  async touchApiKey(id: string, at: number): Promise<void> {
    await this.q('touchKey', [at, id]);
  }

  async createInvite(input: { hash: string; createdBy: string; expiresAt: number }): Promise<InviteRecord> {
    const values = [randomUUID(), input.hash, input.createdBy, this.now(), input.expiresAt];
    return toInvite((await this.q<InviteRow>('insertInvite', values)).rows[0]!);
  }

  async listOpenInvites(now: number): Promise<InviteRecord[]> {
    return (await this.q<InviteRow>('openInvites', [now])).rows.map(toInvite);
  }

  async revokeInvite(id: string): Promise<boolean> {
    return ((await this.q('revokeInvite', [this.now(), id])).rowCount ?? 0) > 0;
  }

  async openInvite(hash: string, now: number): Promise<InviteRecord | undefined> {
    const row = (await this.q<InviteRow>('openInvite', [hash, now])).rows[0];
    return row && toInvite(row);
  }

  async claimInvite(hash: string, userId: string, now: number): Promise<boolean> {
    return ((await this.q('claimInvite', [now, userId, hash])).rowCount ?? 0) > 0;
  }

  async serverSettings(): Promise<ServerSettings> {
    const rows = new Map<string, string>();
    for (const key of ['signUp', 'userTools', 'webSearch'] as const) {
      const row = (await this.q<{ value_json: string }>('setting', [key])).rows[0];
      if (row) rows.set(key, row.value_json);
    }
    return settingsFrom((key) => rows.get(key));
  }

  async updateServerSettings(patch: Partial<ServerSettings>): Promise<ServerSettings> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      for (const [key, value] of Object.entries(patch))
        if (value !== undefined) await this.q('putSetting', [key, JSON.stringify(value)], client);
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
      throw e;
    } finally {
      client.release(broken);
    }
    return this.serverSettings();
  }
}
