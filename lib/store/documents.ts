// Records of the files uploaded to a conversation, owned through it: a record is found only by its conversation's
// owner. Whether bytes are held also counts saved agents' documents (agent_documents, kept by agents.ts).
import { randomUUID } from 'node:crypto';
import type { Db } from './dialect';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import type { Ctx } from './store';
import type { Tables } from './tables';
import type { DocumentStore, StoredDocument } from './types';

const COLUMNS = [
  'id',
  'conversation_id',
  'hash',
  'name',
  'size',
  'state',
  'kind',
  'pages',
  'title',
  'error',
  'error_code',
  'created_at',
] as const;

export function documentRef(hash: string, name: string): string {
  return `files/${hash}/${name}`;
}

export function documentStore(ctx: Ctx): DocumentStore {
  const { db } = ctx;
  /** The ids of the owner's conversations. */
  const owned = (owner: OwnerScope, on: Db = db) =>
    on.selectFrom('conversations').select('id').where('owner_id', '=', owner.ownerId);
  /** How many records point at these bytes: conversations' uploads and saved agents' documents (the owner's). */
  const holders = async (hash: string, owner?: OwnerScope) => {
    const documents = await db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('hash', '=', hash)
      .$if(owner !== undefined, (q) => q.where('conversation_id', 'in', owned(owner!)))
      .executeTakeFirstOrThrow();
    const agents = await db
      .selectFrom('agent_documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('hash', '=', hash)
      .$if(owner !== undefined, (q) => q.where('owner_id', '=', owner!.ownerId))
      .executeTakeFirstOrThrow();
    return Number(documents.n) + Number(agents.n);
  };

  return {
    async addDocument(owner, { conversationId, hash, name, size }) {
      return ctx.write(async (db) => {
        if (!(await owned(owner, db).where('id', '=', conversationId).executeTakeFirst()))
          throw new NotFoundError(`Unknown conversation id "${conversationId}".`);
        const row = await db
          .insertInto('documents')
          .values({
            id: randomUUID(),
            conversation_id: conversationId,
            hash,
            name,
            size,
            state: 'parsing',
            created_at: ctx.now(),
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toDocument(row);
      });
    },

    async getDocument(owner, id) {
      const row = await db
        .selectFrom('documents')
        .select(COLUMNS)
        .where('id', '=', id)
        .where('conversation_id', 'in', owned(owner))
        .executeTakeFirst();
      return row && toDocument(row);
    },

    async listDocuments(owner, conversationId) {
      const rows = await db
        .selectFrom('documents')
        .select(COLUMNS)
        .where('conversation_id', '=', conversationId)
        .where('conversation_id', 'in', owned(owner))
        .orderBy('created_at')
        .orderBy(ctx.ord())
        .execute();
      return rows.map(toDocument);
    },

    async updateDocument(owner, id, update) {
      const row = await db
        .updateTable('documents')
        .set(
          update.state === 'ready'
            ? {
                state: 'ready',
                kind: update.kind,
                pages: update.pages,
                title: update.title ?? null,
                error: null,
                error_code: null,
              }
            : { state: 'error', error: update.error, error_code: update.errorCode ?? null },
        )
        .where('id', '=', id)
        .where('conversation_id', 'in', owned(owner))
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!row) throw new NotFoundError(`Unknown document id "${id}".`);
      return toDocument(row);
    },

    async removeDocument(owner, id) {
      const row = await db
        .deleteFrom('documents')
        .where('id', '=', id)
        .where('conversation_id', 'in', owned(owner))
        .returning(COLUMNS)
        .executeTakeFirst();
      return row && toDocument(row);
    },

    async ownsUpload(owner, hash) {
      return (await holders(hash, owner)) > 0;
    },

    // Every owner's: whether the bytes may go (never answered to a client).
    countDocumentsWithHash: (hash) => holders(hash),
  };
}

function toDocument(row: Tables['documents']): StoredDocument {
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
