// The model_connections table of the SQLite store: servers added on the page, their encrypted keys, and what the
// user set and the servers taught about their models. A row with no owner is server-wide (everyone reads it); else
// only its owner reads or changes it, and the SQL says so.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CapabilityHints } from '../llm/capabilities';
import type { ModelRates } from '../llm/cost';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import type { ConnectionInput, ConnectionStore, StoredConnection } from './types';

export interface ConnectionRow {
  id: string;
  owner_id: string | null;
  name: string;
  base_url: string;
  api_key_cipher: string | null;
  capabilities_json: string;
  rates_json: string;
  created_at: number;
  updated_at: number;
}

export const COLUMNS =
  'id, owner_id, name, base_url, api_key_cipher, capabilities_json, rates_json, created_at, updated_at';

export function toConnection(row: ConnectionRow): StoredConnection {
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

export class SqliteConnections implements ConnectionStore {
  private readonly sql;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    const p = <Params extends unknown[], Row = unknown>(source: string) => db.prepare<Params, Row>(source);
    this.sql = {
      insert: p<[string, string | null, string, string, string | null, string, string, number, number]>(
        `INSERT INTO model_connections (id, owner_id, name, base_url, api_key_cipher, capabilities_json, rates_json,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      one: p<[string], ConnectionRow>(`SELECT ${COLUMNS} FROM model_connections WHERE id = ?`),
      visibleOne: p<[string, string], ConnectionRow>(
        `SELECT ${COLUMNS} FROM model_connections WHERE id = ? AND (owner_id IS NULL OR owner_id = ?)`,
      ),
      // Rows one scope changes: the owner's own, or (owner NULL) the server-wide ones.
      ownedOne: p<[string, string | null], ConnectionRow>(
        `SELECT ${COLUMNS} FROM model_connections WHERE id = ? AND owner_id IS ?`,
      ),
      visibleTo: p<[string], ConnectionRow>(
        `SELECT ${COLUMNS} FROM model_connections WHERE owner_id IS NULL OR owner_id = ? ORDER BY created_at, rowid`,
      ),
      update: p<[string, string, string | null, string, string, number, string, string | null]>(
        `UPDATE model_connections SET name = ?, base_url = ?, api_key_cipher = ?, capabilities_json = ?, rates_json = ?,
           updated_at = ? WHERE id = ? AND owner_id IS ?`,
      ),
      remove: p<[string, string | null]>('DELETE FROM model_connections WHERE id = ? AND owner_id IS ?'),
      forget: p<[string]>('DELETE FROM learned_capabilities WHERE connection_id = ?'),
      learned: p<[string], { model: string; hints_json: string }>(
        'SELECT model, hints_json FROM learned_capabilities WHERE connection_id = ?',
      ),
      learnedOne: p<[string, string], { hints_json: string }>(
        'SELECT hints_json FROM learned_capabilities WHERE connection_id = ? AND model = ?',
      ),
      learn: p<[string, string, string]>(
        `INSERT INTO learned_capabilities (connection_id, model, hints_json) VALUES (?, ?, ?)
           ON CONFLICT (connection_id, model) DO UPDATE SET hints_json = excluded.hints_json`,
      ),
    };
  }

  async listConnections(owner: OwnerScope): Promise<StoredConnection[]> {
    return this.sql.visibleTo.all(owner.ownerId).map(toConnection);
  }

  async getConnection(owner: OwnerScope, id: string): Promise<StoredConnection | undefined> {
    const row = this.sql.visibleOne.get(id, owner.ownerId);
    return row && toConnection(row);
  }

  async addConnection(owner: OwnerScope | null, input: ConnectionInput): Promise<StoredConnection> {
    const id = randomUUID();
    const at = this.now();
    this.sql.insert.run(
      id,
      owner?.ownerId ?? null,
      input.name,
      input.baseURL,
      input.apiKeyCipher,
      JSON.stringify(input.capabilities ?? {}),
      JSON.stringify(input.rates ?? {}),
      at,
      at,
    );
    return toConnection(this.sql.one.get(id)!);
  }

  async updateConnection(
    owner: OwnerScope | null,
    id: string,
    patch: Partial<ConnectionInput>,
  ): Promise<StoredConnection> {
    const ownerId = owner?.ownerId ?? null;
    return this.db.transaction(() => {
      const row = this.sql.ownedOne.get(id, ownerId);
      if (!row) throw new NotFoundError(`Unknown connection id "${id}".`);
      const current = toConnection(row);
      this.sql.update.run(
        patch.name ?? current.name,
        patch.baseURL ?? current.baseURL,
        patch.apiKeyCipher !== undefined ? patch.apiKeyCipher : current.apiKeyCipher,
        JSON.stringify(patch.capabilities ?? current.capabilities),
        JSON.stringify(patch.rates ?? current.rates),
        this.now(),
        id,
        ownerId,
      );
      return toConnection(this.sql.one.get(id)!);
    })();
  }

  async removeConnection(owner: OwnerScope | null, id: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.sql.remove.run(id, owner?.ownerId ?? null).changes === 0) return false;
      this.sql.forget.run(id);
      return true;
    })();
  }

  async learnedCapabilities(connectionId: string): Promise<Record<string, CapabilityHints>> {
    const out: Record<string, CapabilityHints> = {};
    for (const row of this.sql.learned.all(connectionId))
      out[row.model] = JSON.parse(row.hints_json) as CapabilityHints;
    return out;
  }

  async learnCapabilities(connectionId: string, model: string, hints: CapabilityHints): Promise<void> {
    this.db.transaction(() => {
      const row = this.sql.learnedOne.get(connectionId, model);
      const merged = { ...(row ? (JSON.parse(row.hints_json) as CapabilityHints) : {}), ...hints };
      this.sql.learn.run(connectionId, model, JSON.stringify(merged));
    })();
  }
}
