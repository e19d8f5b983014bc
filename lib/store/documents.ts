// The documents table of the SQLite store: records of uploaded files per conversation, owned through it (a record is
// found only by its conversation's owner). Whether bytes are held also counts saved agents' documents.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
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

const COLUMNS =
  'd.id, d.conversation_id, d.hash, d.name, d.size, d.state, d.kind, d.pages, d.title, d.error, d.error_code, d.created_at';
/** The documents of conversations the owner (the last parameter) has. */
const OWNED = 'documents d JOIN conversations c ON c.id = d.conversation_id';

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
      one: p<[string, string], DocumentRow>(`SELECT ${COLUMNS} FROM ${OWNED} WHERE d.id = ? AND c.owner_id = ?`),
      ofConversation: p<[string, string], DocumentRow>(
        `SELECT ${COLUMNS} FROM ${OWNED} WHERE d.conversation_id = ? AND c.owner_id = ? ORDER BY d.created_at, d.rowid`,
      ),
      // After an owned lookup in the same transaction.
      ready: p<[string, number, string | null, string]>(
        `UPDATE documents SET state = 'ready', kind = ?, pages = ?, title = ?, error = NULL, error_code = NULL WHERE id = ?`,
      ),
      failed: p<[string, string | null, string]>(
        `UPDATE documents SET state = 'error', error = ?, error_code = ? WHERE id = ?`,
      ),
      remove: p<[string]>('DELETE FROM documents WHERE id = ?'),
      // A conversation's upload, or a saved agent's document (agent_documents, kept by SqliteAgents).
      ownsHash: p<[string, string, string, string], { n: number }>(
        `SELECT (SELECT count(*) FROM ${OWNED} WHERE d.hash = ? AND c.owner_id = ?)
              + (SELECT count(*) FROM agent_documents WHERE hash = ? AND owner_id = ?) AS n`,
      ),
      // Every owner's: whether the bytes may go (never answered to a client).
      countHash: p<[string, string], { n: number }>(
        `SELECT (SELECT count(*) FROM documents WHERE hash = ?)
              + (SELECT count(*) FROM agent_documents WHERE hash = ?) AS n`,
      ),
      conversationOwned: p<[string, string], { id: string }>(
        'SELECT id FROM conversations WHERE id = ? AND owner_id = ?',
      ),
    };
  }

  async addDocument(
    owner: OwnerScope,
    input: { conversationId: string; hash: string; name: string; size: number },
  ): Promise<StoredDocument> {
    return this.db.transaction(() => {
      if (!this.sql.conversationOwned.get(input.conversationId, owner.ownerId))
        throw new NotFoundError(`Unknown conversation id "${input.conversationId}".`);
      const id = randomUUID();
      this.sql.insert.run(id, input.conversationId, input.hash, input.name, input.size, this.now());
      return toDocument(this.sql.one.get(id, owner.ownerId)!);
    })();
  }

  async getDocument(owner: OwnerScope, id: string): Promise<StoredDocument | undefined> {
    const row = this.sql.one.get(id, owner.ownerId);
    return row && toDocument(row);
  }

  async listDocuments(owner: OwnerScope, conversationId: string): Promise<StoredDocument[]> {
    return this.sql.ofConversation.all(conversationId, owner.ownerId).map(toDocument);
  }

  async updateDocument(owner: OwnerScope, id: string, update: DocumentUpdate): Promise<StoredDocument> {
    return this.db.transaction(() => {
      if (!this.sql.one.get(id, owner.ownerId)) throw new NotFoundError(`Unknown document id "${id}".`);
      if (update.state === 'ready') this.sql.ready.run(update.kind, update.pages, update.title ?? null, id);
      else this.sql.failed.run(update.error, update.errorCode ?? null, id);
      return toDocument(this.sql.one.get(id, owner.ownerId)!);
    })();
  }

  async removeDocument(owner: OwnerScope, id: string): Promise<StoredDocument | undefined> {
    return this.db.transaction(() => {
      const row = this.sql.one.get(id, owner.ownerId);
      if (row) this.sql.remove.run(id);
      return row && toDocument(row);
    })();
  }

  async ownsUpload(owner: OwnerScope, hash: string): Promise<boolean> {
    return (this.sql.ownsHash.get(hash, owner.ownerId, hash, owner.ownerId)?.n ?? 0) > 0;
  }

  async countDocumentsWithHash(hash: string): Promise<number> {
    return this.sql.countHash.get(hash, hash)?.n ?? 0;
  }
}
