// The documents table of the SQLite store: records of uploaded files per conversation.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { DocumentStore, DocumentUpdate, StoredDocument } from './types';

interface DocumentRow {
  id: string;
  conversation_id: string;
  hash: string;
  name: string;
  size: number;
  state: StoredDocument['state'];
  kind: string | null;
  pages: number | null;
  title: string | null;
  error: string | null;
  error_code: string | null;
  created_at: number;
}

const COLUMNS = 'id, conversation_id, hash, name, size, state, kind, pages, title, error, error_code, created_at';

export function documentRef(hash: string, name: string): string {
  return `files/${hash}/${name}`;
}

function toDocument(row: DocumentRow): StoredDocument {
  const doc: StoredDocument = {
    id: row.id,
    conversationId: row.conversation_id,
    hash: row.hash,
    name: row.name,
    size: row.size,
    ref: documentRef(row.hash, row.name),
    state: row.state,
    createdAt: row.created_at,
  };
  if (row.kind !== null) doc.kind = row.kind;
  if (row.pages !== null) doc.pages = row.pages;
  if (row.title !== null) doc.title = row.title;
  if (row.error !== null) doc.error = row.error;
  if (row.error_code !== null) doc.errorCode = row.error_code;
  return doc;
}

export class SqliteDocuments implements DocumentStore {
  private readonly sql;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    const p = <Params extends unknown[], Row = unknown>(source: string) => db.prepare<Params, Row>(source);
    this.sql = {
      insert: p<[string, string, string, string, number, number]>(
        `INSERT INTO documents (id, conversation_id, hash, name, size, state, created_at) VALUES (?, ?, ?, ?, ?, 'parsing', ?)`,
      ),
      one: p<[string], DocumentRow>(`SELECT ${COLUMNS} FROM documents WHERE id = ?`),
      ofConversation: p<[string], DocumentRow>(
        `SELECT ${COLUMNS} FROM documents WHERE conversation_id = ? ORDER BY created_at, rowid`,
      ),
      ready: p<[string, number, string | null, string]>(
        `UPDATE documents SET state = 'ready', kind = ?, pages = ?, title = ?, error = NULL, error_code = NULL WHERE id = ?`,
      ),
      failed: p<[string, string | null, string]>(
        `UPDATE documents SET state = 'error', error = ?, error_code = ? WHERE id = ?`,
      ),
      remove: p<[string]>('DELETE FROM documents WHERE id = ?'),
      countHash: p<[string], { n: number }>('SELECT count(*) AS n FROM documents WHERE hash = ?'),
      conversationExists: p<[string], { id: string }>('SELECT id FROM conversations WHERE id = ?'),
    };
  }

  async addDocument(input: {
    conversationId: string;
    hash: string;
    name: string;
    size: number;
  }): Promise<StoredDocument> {
    if (!this.sql.conversationExists.get(input.conversationId))
      throw new Error(`Unknown conversation id "${input.conversationId}".`);
    const id = randomUUID();
    this.sql.insert.run(id, input.conversationId, input.hash, input.name, input.size, this.now());
    return toDocument(this.sql.one.get(id)!);
  }

  async getDocument(id: string): Promise<StoredDocument | undefined> {
    const row = this.sql.one.get(id);
    return row && toDocument(row);
  }

  async listDocuments(conversationId: string): Promise<StoredDocument[]> {
    return this.sql.ofConversation.all(conversationId).map(toDocument);
  }

  async updateDocument(id: string, update: DocumentUpdate): Promise<StoredDocument> {
    const changes =
      update.state === 'ready'
        ? this.sql.ready.run(update.kind, update.pages, update.title ?? null, id).changes
        : this.sql.failed.run(update.error, update.errorCode ?? null, id).changes;
    if (!changes) throw new Error(`Unknown document id "${id}".`);
    return toDocument(this.sql.one.get(id)!);
  }

  async removeDocument(id: string): Promise<StoredDocument | undefined> {
    return this.db.transaction(() => {
      const row = this.sql.one.get(id);
      if (row) this.sql.remove.run(id);
      return row && toDocument(row);
    })();
  }

  async countDocumentsWithHash(hash: string): Promise<number> {
    return this.sql.countHash.get(hash)?.n ?? 0;
  }
}
