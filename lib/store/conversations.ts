// Conversations and their turns (a user message each), for their owner only (types.ts). A conversation keeps a
// lower-cased search text (title, user messages, finished answers) that a search matches by substring, every word.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { contentText, type ContentItem } from '../llm/schema';
import { mergeSettings, type ConversationSettings } from '../protocol/conversation-settings';
import { likeEscaped, type Db } from './dialect';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import { cols, fromRow, insert, query } from './query';
import type { Ctx } from './context';
import type { Tables } from './tables';
import { DEFAULT_TITLE, type ChatStore, type Conversation, type ConversationSummary, type StoredTurn } from './types';

const SUMMARY = ['id', 'title', 'created_at', 'updated_at'] as const;
const COLUMNS = [...SUMMARY, 'settings_json'] as const;
export const TURN_COLUMNS = ['t.id', 't.conversation_id', 't.seq', 't.content_json', 't.created_at'] as const;

type ConversationRow = Pick<Tables['conversations'], (typeof COLUMNS)[number]>;

function byId(lock: boolean) {
  return query((d, p) =>
    d.db
      .selectFrom('conversations')
      .select(COLUMNS)
      .where('id', '=', p('id'))
      .where('owner_id', '=', p('owner'))
      .$if(lock && d.rowLocks, (q) => q.forUpdate()),
  );
}

function update(columns: ('title' | 'settings_json' | 'updated_at')[]) {
  return query((d, p) => d.db.updateTable('conversations').set(cols(p, columns)).where('id', '=', p('id')));
}

const Q = {
  insert: insert<ConversationRow>('conversations', { returning: COLUMNS }),
  one: byId(false),
  locked: byId(true),
  // After an owned lookup in the same transaction.
  rename: update(['title']),
  settings: update(['settings_json']),
  delete: query((d, p) =>
    d.db.deleteFrom('conversations').where('id', '=', p('id')).where('owner_id', '=', p('owner')),
  ),
  search: query((d, p) =>
    d.db
      .updateTable('conversations')
      .where('id', '=', p('id'))
      .set({
        search_text: sql`CAST(${p('title')} AS text)
        || ${'\n'} || coalesce((SELECT string_agg(search_text, ${'\n'} ORDER BY seq)
                              FROM turns WHERE conversation_id = ${p('id')}), '')
        || ${'\n'} || coalesce((SELECT string_agg(r.answer_text, ${'\n'}
                                ORDER BY r.started_at, ${sql.ref(`r.${d.ord}`)})
                              FROM runs r JOIN turns t ON t.id = r.turn_id
                              WHERE t.conversation_id = ${p('id')} AND r.answer_text IS NOT NULL), '')`,
      }),
  ),
  addTurn: query(
    (d, p) =>
      d.db
        .insertInto('turns')
        .values({
          ...cols(p, ['id', 'conversation_id', 'content_json', 'search_text', 'created_at']),
          seq: d.db
            .selectFrom('turns')
            .select(sql<number>`coalesce(max(seq), -1) + 1`.as('next'))
            .where('conversation_id', '=', p('conversation_id')),
        })
        .returning(['id', 'conversation_id', 'seq', 'content_json', 'created_at']),
    fromRow<StoredTurn>,
  ),
};

/** The owner's turn (in `db`'s transaction). */
export const ownedTurn = query(
  (d, p) =>
    d.db
      .selectFrom('turns as t')
      .innerJoin('conversations as c', 'c.id', 't.conversation_id')
      .select(TURN_COLUMNS)
      .where('t.id', '=', p('id'))
      .where('c.owner_id', '=', p('owner')),
  fromRow<StoredTurn>,
);

/** Deletes the conversation's turns from `seq` on (with their runs). As appendTurn: locked, owned, search text the
 *  caller's. */
export const dropTurnsFrom = query((d, p) =>
  d.db.deleteFrom('turns').where('conversation_id', '=', p('conversation')).where('seq', '>=', p('seq')),
);

/** The conversation moves to the top of its owner's list (after an owned lookup in the same transaction). */
export const touch = update(['updated_at']);

// Fields added to the defaults after a row was written get their default.
function toConversation(ctx: Ctx, { settings_json, ...row }: ConversationRow): Conversation {
  return {
    ...fromRow<ConversationSummary>(row),
    settings: mergeSettings(ctx.defaults, JSON.parse(settings_json) as Partial<ConversationSettings>),
  };
}

/** `settings` merged into the conversation's (its row, locked and owned, read in `db`'s write transaction). */
export async function saveSettings(
  ctx: Ctx,
  db: Db,
  row: ConversationRow,
  settings: Partial<ConversationSettings>,
): Promise<Conversation> {
  const current = toConversation(ctx, row);
  const merged = mergeSettings(current.settings, settings);
  await Q.settings.run(ctx, db, { id: row.id, settings_json: JSON.stringify(merged) });
  return { ...current, settings: merged };
}

export function conversationStore(ctx: Ctx) {
  const { db } = ctx;

  return {
    async createConversation(owner, init) {
      const at = ctx.now();
      const title = init?.title?.trim() || DEFAULT_TITLE;
      const settings = mergeSettings(ctx.defaults, init?.settings);
      const row = await Q.insert.first(ctx, db, {
        id: randomUUID(),
        owner_id: owner.ownerId,
        title,
        created_at: at,
        updated_at: at,
        settings_json: JSON.stringify(settings),
        search_text: title.toLowerCase(),
      });
      return toConversation(ctx, row!);
    },

    async getConversation(owner, id) {
      const row = await Q.one.first(ctx, db, { id, owner: owner.ownerId });
      return row && toConversation(ctx, row);
    },

    async listConversations(owner, search) {
      const words = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const rows = await db
        .selectFrom('conversations')
        .select(SUMMARY)
        .where('owner_id', '=', owner.ownerId)
        .$call((q) =>
          words.reduce((q, w) => q.where(sql<boolean>`search_text LIKE ${`%${likeEscaped(w)}%`} ESCAPE '\\'`), q),
        )
        .orderBy('updated_at', 'desc')
        .orderBy(sql.ref(ctx.d.ord), 'desc')
        .execute();
      return rows.map((row) => fromRow<ConversationSummary>(row));
    },

    async renameConversation(owner, id, title) {
      const clean = title.trim() || DEFAULT_TITLE;
      await ctx.write(async (db) => {
        await conversationOf(ctx, db, owner, id);
        await Q.rename.run(ctx, db, { id, title: clean });
        await rebuildSearch(ctx, db, id, clean);
      });
    },

    async updateSettings(owner, id, settings) {
      return ctx.write(async (db) => saveSettings(ctx, db, await conversationOf(ctx, db, owner, id), settings));
    },

    async deleteConversation(owner, id) {
      if (!(await Q.delete.run(ctx, db, { id, owner: owner.ownerId })))
        throw new NotFoundError(`Unknown conversation id "${id}".`);
    },

    getTurn: (owner, id) => ownedTurn.first(ctx, db, { id, owner: owner.ownerId }),
  } satisfies Partial<ChatStore>;
}

/** The owner's conversation, locked for `db`'s write transaction where the database locks rows (PostgreSQL: the
 *  writers of one conversation, its turn numbers and search text, wait for each other across instances). */
export async function conversationOf(ctx: Ctx, db: Db, owner: OwnerScope, id: string, lock = true) {
  const row = await (lock ? Q.locked : Q.one).first(ctx, db, { id, owner: owner.ownerId });
  if (!row) throw new NotFoundError(`Unknown conversation id "${id}".`);
  return row;
}

/** A user turn at the end of the conversation, which moves to the top of its owner's list. In a write transaction
 *  that locked the conversation (its turn numbers), after an owned lookup; the caller rebuilds its search text. */
export async function appendTurn(
  ctx: Ctx,
  db: Db,
  conversationId: string,
  content: string | ContentItem[],
): Promise<StoredTurn> {
  const at = ctx.now();
  const turn = await Q.addTurn.first(ctx, db, {
    id: randomUUID(),
    conversation_id: conversationId,
    content_json: JSON.stringify(content),
    search_text: (typeof content === 'string' ? content : contentText(content)).toLowerCase(),
    created_at: at,
  });
  await touch.run(ctx, db, { id: conversationId, updated_at: at });
  return turn!;
}

/** The conversation's search text from its title, its turns and its finished runs' answers. In the transaction
 *  that changed one of them, after an owned lookup. */
export async function rebuildSearch(ctx: Ctx, db: Db, id: string, title: string): Promise<void> {
  await Q.search.run(ctx, db, { id, title: title.toLowerCase() });
}
