// Conversations and their turns (a user message each), for their owner only: every query that finds or lists takes
// the owner's scope and filters by it, so another owner's id reads as unknown. A conversation keeps a lower-cased
// search text (title, user messages, finished answers) that a search matches by substring, every word.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { contentText, type ContentItem } from '../llm/schema';
import { likeEscaped, type Db } from './dialect';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import { DEFAULT_TITLE, mergeSettings, settingsFromJson } from './settings';
import type { Ctx } from './store';
import type { Tables } from './tables';
import type { ChatStore, Conversation, ConversationSummary, StoredTurn } from './types';

const COLUMNS = ['id', 'title', 'created_at', 'updated_at', 'settings_json'] as const;
export const TURN_COLUMNS = ['t.id', 't.conversation_id', 't.seq', 't.content_json', 't.created_at'] as const;

type ConversationRow = Pick<Tables['conversations'], (typeof COLUMNS)[number]>;

export function conversationStore(ctx: Ctx) {
  const { db } = ctx;
  const toConversation = (row: ConversationRow): Conversation => ({
    ...toSummary(row),
    settings: settingsFromJson(row.settings_json, ctx.defaults),
  });

  return {
    async createConversation(owner, init) {
      const at = ctx.now();
      const title = init?.title?.trim() || DEFAULT_TITLE;
      const settings = mergeSettings(ctx.defaults, init?.settings);
      const row = await db
        .insertInto('conversations')
        .values({
          id: randomUUID(),
          owner_id: owner.ownerId,
          title,
          created_at: at,
          updated_at: at,
          settings_json: JSON.stringify(settings),
          search_text: title.toLowerCase(),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return { ...toSummary(row), settings };
    },

    async getConversation(owner, id) {
      const row = await db
        .selectFrom('conversations')
        .select(COLUMNS)
        .where('id', '=', id)
        .where('owner_id', '=', owner.ownerId)
        .executeTakeFirst();
      return row && toConversation(row);
    },

    async listConversations(owner, query) {
      const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const rows = await db
        .selectFrom('conversations')
        .select(COLUMNS)
        .where('owner_id', '=', owner.ownerId)
        .$call((q) =>
          words.reduce((q, word) => q.where(sql<boolean>`search_text LIKE ${`%${likeEscaped(word)}%`} ESCAPE '\\'`), q),
        )
        .orderBy('updated_at', 'desc')
        .orderBy(ctx.ord(), 'desc')
        .execute();
      return rows.map(toSummary);
    },

    async renameConversation(owner, id, title) {
      const clean = title.trim() || DEFAULT_TITLE;
      await ctx.write(async (db) => {
        await conversationOf(ctx, db, owner, id);
        await db.updateTable('conversations').set({ title: clean }).where('id', '=', id).execute();
        await rebuildSearch(ctx, db, id, clean);
      });
    },

    async updateSettings(owner, id, settings) {
      return ctx.write(async (db) => {
        const current = toConversation(await conversationOf(ctx, db, owner, id));
        const merged = mergeSettings(current.settings, settings);
        await db
          .updateTable('conversations')
          .set({ settings_json: JSON.stringify(merged) })
          .where('id', '=', id)
          .execute();
        return { ...current, settings: merged };
      });
    },

    async deleteConversation(owner, id) {
      const { numDeletedRows } = await db
        .deleteFrom('conversations')
        .where('id', '=', id)
        .where('owner_id', '=', owner.ownerId)
        .executeTakeFirst();
      if (!numDeletedRows) throw new NotFoundError(`Unknown conversation id "${id}".`);
    },

    async addTurn(owner, conversationId, content) {
      return ctx.write(async (db) => {
        const conversation = await conversationOf(ctx, db, owner, conversationId);
        const at = ctx.now();
        const row = await db
          .insertInto('turns')
          .values({
            id: randomUUID(),
            conversation_id: conversationId,
            seq: db
              .selectFrom('turns')
              .select(sql<number>`coalesce(max(seq), -1) + 1`.as('next'))
              .where('conversation_id', '=', conversationId),
            content_json: JSON.stringify(content),
            search_text: (typeof content === 'string' ? content : contentText(content)).toLowerCase(),
            created_at: at,
          })
          .returning(['id', 'conversation_id', 'seq', 'content_json', 'created_at'])
          .executeTakeFirstOrThrow();
        await db.updateTable('conversations').set({ updated_at: at }).where('id', '=', conversationId).execute();
        await rebuildSearch(ctx, db, conversationId, conversation.title);
        return toTurn(row);
      });
    },

    async getTurn(owner, turnId) {
      const row = await db
        .selectFrom('turns as t')
        .innerJoin('conversations as c', 'c.id', 't.conversation_id')
        .select(TURN_COLUMNS)
        .where('t.id', '=', turnId)
        .where('c.owner_id', '=', owner.ownerId)
        .executeTakeFirst();
      return row && toTurn(row);
    },

    async deleteTurnsFrom(owner, conversationId, seq) {
      await ctx.write(async (db) => {
        const conversation = await conversationOf(ctx, db, owner, conversationId);
        await db.deleteFrom('turns').where('conversation_id', '=', conversationId).where('seq', '>=', seq).execute();
        await rebuildSearch(ctx, db, conversationId, conversation.title);
      });
    },
  } satisfies Partial<ChatStore>;
}

/** The owner's conversation, locked for `db`'s write transaction where the database locks rows (PostgreSQL: the
 *  writers of one conversation, its turn numbers and search text, wait for each other across instances). `owner`
 *  null only for closing a run already found. */
export async function conversationOf(ctx: Ctx, db: Db, owner: OwnerScope | null, id: string, lock = true) {
  const row = await db
    .selectFrom('conversations')
    .select(COLUMNS)
    .where('id', '=', id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner!.ownerId))
    .$if(lock && ctx.d.rowLocks, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw new NotFoundError(`Unknown conversation id "${id}".`);
  return row;
}

/** The conversation's search text from its title, its turns and its finished runs' answers. In the transaction
 *  that changed one of them, after an owned lookup. */
export async function rebuildSearch(ctx: Ctx, db: Db, id: string, title: string): Promise<void> {
  const agg = sql.raw(ctx.d.stringAgg);
  const nl = '\n';
  await sql`UPDATE conversations SET search_text = CAST(${title.toLowerCase()} AS text)
      || ${nl} || coalesce((SELECT ${agg}(search_text, ${nl} ORDER BY seq) FROM turns WHERE conversation_id = ${id}), '')
      || ${nl} || coalesce((SELECT ${agg}(r.answer_text, ${nl} ORDER BY r.started_at, ${ctx.ord('r')})
                            FROM runs r JOIN turns t ON t.id = r.turn_id
                            WHERE t.conversation_id = ${id} AND r.answer_text IS NOT NULL), '')
    WHERE id = ${id}`.execute(db);
}

function toSummary(row: ConversationRow): ConversationSummary {
  return { id: row.id, title: row.title, createdAt: row.created_at, updatedAt: row.updated_at };
}

export function toTurn(row: Omit<Tables['turns'], 'search_text'>): StoredTurn {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    seq: row.seq,
    content: JSON.parse(row.content_json) as string | ContentItem[],
    createdAt: row.created_at,
  };
}
