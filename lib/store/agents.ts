// The agents table of the SQLite store: the agents users saved, each definition kept whole as JSON. Every query
// filters by the owner, so another user's agent reads as unknown.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { NotFoundError } from './errors';
import { LOCAL_OWNER_ID, type OwnerScope } from './owner';
import type { AgentDefinition, SavedAgent } from './types';

export interface AgentRow {
  id: string;
  definition_json: string;
  created_at: number;
  updated_at: number;
}

export const COLUMNS = 'id, definition_json, created_at, updated_at';

export function toAgent(row: AgentRow): SavedAgent {
  const definition = JSON.parse(row.definition_json) as AgentDefinition;
  return { ...definition, id: row.id, createdAt: row.created_at, updatedAt: row.updated_at };
}

export class SqliteAgents {
  private readonly sql;

  constructor(
    db: Database.Database,
    private readonly now: () => number,
  ) {
    const p = <Params extends unknown[], Row = unknown>(source: string) => db.prepare<Params, Row>(source);
    this.sql = {
      insert: p<[string, string, string, string, number, number]>(
        'INSERT INTO agents (id, owner_id, name, definition_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      one: p<[string, string], AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE id = ? AND owner_id = ?`),
      all: p<[string], AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE owner_id = ? ORDER BY lower(name), created_at`),
      update: p<[string, string, number, string, string]>(
        'UPDATE agents SET name = ?, definition_json = ?, updated_at = ? WHERE id = ? AND owner_id = ?',
      ),
      delete: p<[string, string]>('DELETE FROM agents WHERE id = ? AND owner_id = ?'),
      adopt: p<[string, string]>('UPDATE agents SET owner_id = ? WHERE owner_id = ?'),
    };
  }

  create(owner: OwnerScope, definition: AgentDefinition): SavedAgent {
    const id = randomUUID();
    const at = this.now();
    this.sql.insert.run(id, owner.ownerId, definition.name, JSON.stringify(definition), at, at);
    return toAgent(this.sql.one.get(id, owner.ownerId)!);
  }

  get(owner: OwnerScope, id: string): SavedAgent | undefined {
    const row = this.sql.one.get(id, owner.ownerId);
    return row && toAgent(row);
  }

  list(owner: OwnerScope): SavedAgent[] {
    return this.sql.all.all(owner.ownerId).map(toAgent);
  }

  update(owner: OwnerScope, id: string, definition: AgentDefinition): SavedAgent {
    const at = this.now();
    const changed = this.sql.update.run(definition.name, JSON.stringify(definition), at, id, owner.ownerId).changes;
    if (!changed) throw new NotFoundError(`Unknown agent id "${id}".`);
    return toAgent(this.sql.one.get(id, owner.ownerId)!);
  }

  delete(owner: OwnerScope, id: string): boolean {
    return this.sql.delete.run(id, owner.ownerId).changes > 0;
  }

  /** The built-in local owner's agents become the first admin's (with the rest of the local data). */
  adoptLocal(owner: OwnerScope): number {
    if (owner.ownerId === LOCAL_OWNER_ID) return 0;
    return this.sql.adopt.run(owner.ownerId, LOCAL_OWNER_ID).changes;
  }
}
