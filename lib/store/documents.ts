// Records of the files uploaded to a conversation, owned through it: a record is found only by its conversation's
// owner. Whether bytes are held also counts saved agents' documents (agent_documents, kept by agents.ts).
import { randomUUID } from 'node:crypto';
import { sql, type Updateable } from 'kysely';
import { conversationOf } from './conversations';
import type { Dialect } from './dialect';
import { cols, fromRow, insert, query } from './query';
import { NotFoundError } from './errors';
import type { Ctx } from './context';
import type { Tables } from './tables';
import type { DocumentStore, StoredDocument } from './types';

export function documentRef(hash: string, name: string): string {
  return `files/${hash}/${name}`;
}

/** The ids of the owner's conversations. */
const owned = (d: Dialect, owner: never) => d.db.selectFrom('conversations').select('id').where('owner_id', '=', owner);
const n = sql<number>`count(*)`.as('n');
/** The owner's document `p('id')`. */
const mine = (p: (name: string) => never) =>
  sql<boolean>`id = ${p('id')} AND conversation_id IN (SELECT id FROM conversations WHERE owner_id = ${p('owner')})`;
/** Sets these columns of the owner's document `p('id')`, and answers with it. */
const update = (set: (p: (name: string) => never) => Updateable<Tables['documents']>) =>
  query((d, p) => d.db.updateTable('documents').set(set(p)).where(mine(p)).returningAll(), toDocument);

const Q = {
  insert: insert('documents', { returning: '*', map: toDocument }),
  one: query((d, p) => d.db.selectFrom('documents').selectAll().where(mine(p)), toDocument),
  ofConversation: query(
    (d, p) =>
      d.db
        .selectFrom('documents')
        .selectAll()
        .where('conversation_id', '=', p('conversation'))
        .where('conversation_id', 'in', owned(d, p('owner')))
        .orderBy('created_at')
        .orderBy(sql.ref(d.ord)),
    toDocument,
  ),
  ready: update((p) => ({ ...cols(p, ['kind', 'pages', 'title']), state: 'ready', error: null, error_code: null })),
  failed: update((p) => ({ state: 'error', error: p('error'), error_code: p('code') })),
  remove: query((d, p) => d.db.deleteFrom('documents').where(mine(p)).returningAll(), toDocument),
  // A conversation's upload, or a saved agent's document (agent_documents, kept by agents.ts).
  owned: query((d, p) =>
    d.db
      .selectFrom('documents')
      .select(n)
      .where('hash', '=', p('hash'))
      .where('conversation_id', 'in', owned(d, p('owner')))
      .unionAll(
        d.db.selectFrom('agent_documents').select(n).where('hash', '=', p('hash')).where('owner_id', '=', p('owner')),
      ),
  ),
  // Every owner's: whether the bytes may go (never answered to a client).
  all: query((d, p) =>
    d.db
      .selectFrom('documents')
      .select(n)
      .where('hash', '=', p('hash'))
      .unionAll(d.db.selectFrom('agent_documents').select(n).where('hash', '=', p('hash'))),
  ),
};

export function documentStore(ctx: Ctx): DocumentStore {
  const { db } = ctx;
  const holders = async (rows: Promise<{ n: number }[]>) => (await rows).reduce((sum, r) => sum + Number(r.n), 0);

  return {
    async addDocument(owner, { conversationId, hash, name, size }) {
      return ctx.write(async (db) => {
        await conversationOf(ctx, db, owner, conversationId, false);
        const values = { id: randomUUID(), conversation_id: conversationId, hash, name, size, state: 'parsing' };
        return (await Q.insert.first(ctx, db, { ...values, created_at: ctx.now() }))!;
      });
    },

    getDocument: (owner, id) => Q.one.first(ctx, db, { id, owner: owner.ownerId }),
    listDocuments: (owner, conversationId) =>
      Q.ofConversation.all(ctx, db, { conversation: conversationId, owner: owner.ownerId }),

    async updateDocument(owner, id, update) {
      const row =
        update.state === 'ready'
          ? await Q.ready.first(ctx, db, { id, owner: owner.ownerId, ...update, title: update.title ?? null })
          : await Q.failed.first(ctx, db, {
              id,
              owner: owner.ownerId,
              error: update.error,
              code: update.errorCode ?? null,
            });
      if (!row) throw new NotFoundError(`Unknown document id "${id}".`);
      return row;
    },

    removeDocument: (owner, id) => Q.remove.first(ctx, db, { id, owner: owner.ownerId }),

    ownsUpload: async (owner, hash) => (await holders(Q.owned.all(ctx, db, { hash, owner: owner.ownerId }))) > 0,
    countDocumentsWithHash: (hash) => holders(Q.all.all(ctx, db, { hash })),
  };
}

function toDocument(row: Tables['documents']): StoredDocument {
  return { ...fromRow<Omit<StoredDocument, 'ref'>>(row), ref: documentRef(row.hash, row.name) };
}
