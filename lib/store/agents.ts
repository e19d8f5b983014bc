// The agents table of the SQLite store: the agents the user saved, each definition kept whole as JSON.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AgentDefinition, SavedAgent } from './types';

interface AgentRow {
  id: string;
  definition_json: string;
  created_at: number;
  updated_at: number;
}

const COLUMNS = 'id, definition_json, created_at, updated_at';

function toAgent(row: AgentRow): SavedAgent {
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
      insert: p<[string, string, string, number, number]>(
        'INSERT INTO agents (id, name, definition_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      ),
      one: p<[string], AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE id = ?`),
      all: p<[], AgentRow>(`SELECT ${COLUMNS} FROM agents ORDER BY lower(name), created_at`),
      update: p<[string, string, number, string]>(
        'UPDATE agents SET name = ?, definition_json = ?, updated_at = ? WHERE id = ?',
      ),
      delete: p<[string]>('DELETE FROM agents WHERE id = ?'),
    };
  }

  create(definition: AgentDefinition): SavedAgent {
    const id = randomUUID();
    const at = this.now();
    this.sql.insert.run(id, definition.name, JSON.stringify(definition), at, at);
    return toAgent(this.sql.one.get(id)!);
  }

  get(id: string): SavedAgent | undefined {
    const row = this.sql.one.get(id);
    return row && toAgent(row);
  }

  list(): SavedAgent[] {
    return this.sql.all.all().map(toAgent);
  }

  update(id: string, definition: AgentDefinition): SavedAgent {
    const changed = this.sql.update.run(definition.name, JSON.stringify(definition), this.now(), id).changes;
    if (!changed) throw new Error(`Agent ${id} does not exist.`);
    return toAgent(this.sql.one.get(id)!);
  }

  delete(id: string): boolean {
    return this.sql.delete.run(id).changes > 0;
  }
}
