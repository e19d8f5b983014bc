// The agents table of the SQLite store: the agents users saved, each definition kept whole as JSON, and which uploads
// their documents hold (agent_documents). Every query filters by the owner, so another user's agent reads as unknown.
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
      dropDocuments: p<[string]>('DELETE FROM agent_documents WHERE agent_id = ?'),
      addDocument: p<[string, string, string]>(
        'INSERT OR IGNORE INTO agent_documents (agent_id, owner_id, hash) VALUES (?, ?, ?)',
      ),
      adoptDocuments: p<[string, string]>('UPDATE agent_documents SET owner_id = ? WHERE owner_id = ?'),
    };
    this.write = db.transaction((owner: OwnerScope, id: string, definition: AgentDefinition, isNew: boolean) => {
      const at = this.now();
      const json = JSON.stringify(definition);
      if (isNew) this.sql.insert.run(id, owner.ownerId, definition.name, json, at, at);
      else if (!this.sql.update.run(definition.name, json, at, id, owner.ownerId).changes)
        throw new NotFoundError(`Unknown agent id "${id}".`);
      this.sql.dropDocuments.run(id);
      for (const doc of definition.documents ?? []) this.sql.addDocument.run(id, owner.ownerId, doc.hash);
      return toAgent(this.sql.one.get(id, owner.ownerId)!);
    });
  }

  /** Saves the definition and which uploads its documents hold, in one transaction. */
  private readonly write: (owner: OwnerScope, id: string, definition: AgentDefinition, isNew: boolean) => SavedAgent;

  create(owner: OwnerScope, definition: AgentDefinition): SavedAgent {
    return this.write(owner, randomUUID(), definition, true);
  }

  get(owner: OwnerScope, id: string): SavedAgent | undefined {
    const row = this.sql.one.get(id, owner.ownerId);
    return row && toAgent(row);
  }

  list(owner: OwnerScope): SavedAgent[] {
    return this.sql.all.all(owner.ownerId).map(toAgent);
  }

  update(owner: OwnerScope, id: string, definition: AgentDefinition): SavedAgent {
    return this.write(owner, id, definition, false);
  }

  delete(owner: OwnerScope, id: string): boolean {
    return this.sql.delete.run(id, owner.ownerId).changes > 0;
  }

  /** The built-in local owner's agents become the first admin's (with the rest of the local data). */
  adoptLocal(owner: OwnerScope): number {
    if (owner.ownerId === LOCAL_OWNER_ID) return 0;
    this.sql.adoptDocuments.run(owner.ownerId, LOCAL_OWNER_ID);
    return this.sql.adopt.run(owner.ownerId, LOCAL_OWNER_ID).changes;
  }
}
