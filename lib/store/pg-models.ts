// The PostgreSQL store's model connections and saved agents: the same records as SQLite's (connections.ts,
// agents.ts), the same ownership (a connection with no owner is server-wide; everything else only its owner's),
// statements from pg-statements.ts.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { CapabilityHints } from '../llm/capabilities';
import { toAgent, type AgentRow } from './agents';
import { toConnection, type ConnectionRow } from './connections';
import { NotFoundError } from './errors';
import { LOCAL_OWNER_ID, type OwnerScope } from './owner';
import { pgText, run, type PgStatement, type Queryable } from './pg-statements';
import type {
  AgentDefinition,
  AgentStore,
  ConnectionInput,
  ConnectionStore,
  SavedAgent,
  StoredConnection,
} from './types';

type InTransaction = <T>(fn: (db: pg.PoolClient) => Promise<T>) => Promise<T>;

export class PgModels implements ConnectionStore, AgentStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tx: InTransaction,
    private readonly now: () => number,
  ) {}

  private q<Row extends pg.QueryResultRow>(name: PgStatement, values: unknown[], db: Queryable = this.pool) {
    return run<Row>(db, name, values);
  }

  async listConnections(owner: OwnerScope): Promise<StoredConnection[]> {
    return (await this.q<ConnectionRow>('connectionsVisibleTo', [owner.ownerId])).rows.map(toConnection);
  }

  async getConnection(owner: OwnerScope, id: string): Promise<StoredConnection | undefined> {
    const row = (await this.q<ConnectionRow>('visibleConnection', [id, owner.ownerId])).rows[0];
    return row && toConnection(row);
  }

  async addConnection(owner: OwnerScope | null, input: ConnectionInput): Promise<StoredConnection> {
    const values = [
      randomUUID(),
      owner?.ownerId ?? null,
      pgText(input.name),
      pgText(input.baseURL),
      input.apiKeyCipher,
      JSON.stringify(input.capabilities ?? {}),
      JSON.stringify(input.rates ?? {}),
      this.now(),
    ];
    return toConnection((await this.q<ConnectionRow>('insertConnection', values)).rows[0]!);
  }

  async updateConnection(
    owner: OwnerScope | null,
    id: string,
    patch: Partial<ConnectionInput>,
  ): Promise<StoredConnection> {
    const ownerId = owner?.ownerId ?? null;
    return this.tx(async (db) => {
      const row = (await this.q<ConnectionRow>('lockOwnedConnection', [id, ownerId], db)).rows[0];
      if (!row) throw new NotFoundError(`Unknown connection id "${id}".`);
      const current = toConnection(row);
      const values = [
        pgText(patch.name ?? current.name),
        pgText(patch.baseURL ?? current.baseURL),
        patch.apiKeyCipher !== undefined ? patch.apiKeyCipher : current.apiKeyCipher,
        JSON.stringify(patch.capabilities ?? current.capabilities),
        JSON.stringify(patch.rates ?? current.rates),
        this.now(),
        id,
        ownerId,
      ];
      return toConnection((await this.q<ConnectionRow>('updateConnection', values, db)).rows[0]!);
    });
  }

  async removeConnection(owner: OwnerScope | null, id: string): Promise<boolean> {
    const { rows } = await this.q<{ n: number }>('removeConnection', [id, owner?.ownerId ?? null]);
    return (rows[0]?.n ?? 0) > 0;
  }

  async learnedCapabilities(connectionId: string): Promise<Record<string, CapabilityHints>> {
    const out: Record<string, CapabilityHints> = {};
    for (const row of (await this.q<{ model: string; hints_json: string }>('learned', [connectionId])).rows)
      out[row.model] = JSON.parse(row.hints_json) as CapabilityHints;
    return out;
  }

  async learnCapabilities(connectionId: string, model: string, hints: CapabilityHints): Promise<void> {
    await this.q('learn', [connectionId, pgText(model), JSON.stringify(hints)]);
  }

  async createAgent(owner: OwnerScope, definition: AgentDefinition): Promise<SavedAgent> {
    const values = [randomUUID(), owner.ownerId, pgText(definition.name), JSON.stringify(definition), this.now()];
    return this.tx(async (db) => {
      const row = (await this.q<AgentRow>('insertAgent', values, db)).rows[0]!;
      await this.holdDocuments(owner, row.id, definition, db);
      return toAgent(row);
    });
  }

  async getAgent(owner: OwnerScope, id: string): Promise<SavedAgent | undefined> {
    const row = (await this.q<AgentRow>('agent', [id, owner.ownerId])).rows[0];
    return row && toAgent(row);
  }

  async listAgents(owner: OwnerScope): Promise<SavedAgent[]> {
    return (await this.q<AgentRow>('agentsOf', [owner.ownerId])).rows.map(toAgent);
  }

  async updateAgent(owner: OwnerScope, id: string, definition: AgentDefinition): Promise<SavedAgent> {
    const values = [pgText(definition.name), JSON.stringify(definition), this.now(), id, owner.ownerId];
    return this.tx(async (db) => {
      const row = (await this.q<AgentRow>('updateAgent', values, db)).rows[0];
      if (!row) throw new NotFoundError(`Unknown agent id "${id}".`);
      await this.holdDocuments(owner, id, definition, db);
      return toAgent(row);
    });
  }

  /** Which uploads the agent's documents hold, rewritten with its definition (SQLite: SqliteAgents.write). */
  private async holdDocuments(owner: OwnerScope, id: string, definition: AgentDefinition, db: Queryable) {
    await this.q('dropAgentDocuments', [id], db);
    const hashes = (definition.documents ?? []).map((d) => pgText(d.hash));
    if (hashes.length) await this.q('addAgentDocuments', [id, owner.ownerId, hashes], db);
  }

  async deleteAgent(owner: OwnerScope, id: string): Promise<boolean> {
    return ((await this.q('deleteAgent', [id, owner.ownerId])).rowCount ?? 0) > 0;
  }

  /** The built-in local owner's agents become the first admin's (with the rest of the local data). */
  async adoptLocalAgents(owner: OwnerScope, db: Queryable): Promise<number> {
    if (owner.ownerId === LOCAL_OWNER_ID) return 0;
    await this.q('adoptAgentDocuments', [owner.ownerId, LOCAL_OWNER_ID], db);
    return (await this.q('adoptAgents', [owner.ownerId, LOCAL_OWNER_ID], db)).rowCount ?? 0;
  }
}
