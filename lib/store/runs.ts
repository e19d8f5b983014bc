// Runs (each turn's answers: regenerate and replay add more) and their event logs, for their conversation's owner
// only. A run is written while it streams (appendEvents, the hot path: the dialect's prepared statement) and closed
// once: its status, its answer's text for search, the messages it added (so that the next run's history reads one
// row per turn), and its row in the Runs page's index, all in one transaction. With a run bus (instances sharing the
// database) only the instance that holds a run's lease writes it; a run whose lease ran out is marked interrupted.
import { foldEvents } from '../agent/fold';
import type { Message } from '../llm/schema';
import type { RunStatus } from '../protocol/enums';
import type { AgentEvent, ErrorInfo } from '../protocol/events';
import { conversationOf, rebuildSearch, toTurn, TURN_COLUMNS } from './conversations';
import type { Db } from './dialect';
import { NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import { indexRun } from './run-index';
import { keptMessages, messagesJson } from './run-messages';
import type { Ctx } from './store';
import type { Tables } from './tables';
import type { ChatStore, HistoryTurn, StoredRun, TurnRecord } from './types';
import { upgradeRunLog } from './upgrade';

const RUN_COLUMNS = ['r.id', 'r.turn_id', 'r.status', 'r.started_at', 'r.ended_at', 'r.error_json'] as const;

type RunRow = Pick<Tables['runs'], 'id' | 'turn_id' | 'status' | 'started_at' | 'ended_at' | 'error_json'>;

export function runStore(ctx: Ctx) {
  const { db, bus } = ctx;
  /** The owner's runs: runs r joined up to their conversation c. */
  const owned = (db: Db, owner: OwnerScope) =>
    db
      .selectFrom('runs as r')
      .innerJoin('turns as t', 't.id', 'r.turn_id')
      .innerJoin('conversations as c', 'c.id', 't.conversation_id')
      .where('c.owner_id', '=', owner.ownerId);
  /** A conversation's runs, oldest first. After an owned lookup. */
  const runsOf = (db: Db, conversationId: string) =>
    db
      .selectFrom('runs as r')
      .innerJoin('turns as t', 't.id', 'r.turn_id')
      .where('t.conversation_id', '=', conversationId)
      .orderBy('r.started_at')
      .orderBy(ctx.ord('r'));
  const turnsOf = (db: Db, conversationId: string) =>
    db.selectFrom('turns as t').select(TURN_COLUMNS).where('t.conversation_id', '=', conversationId).orderBy('t.seq');

  /** Why a write to a run was refused: unknown (or another owner's), no longer running, or another instance's. */
  async function refusal(owner: OwnerScope, runId: string, what: string): Promise<Error> {
    const row = await owned(db, owner).select('r.status').where('r.id', '=', runId).executeTakeFirst();
    if (!row) return new NotFoundError(`Unknown run id "${runId}": cannot ${what}.`);
    if (row.status !== 'running')
      return new Error(`Run "${runId}" is ${row.status}, no longer running: cannot ${what}.`);
    return new Error(`Run "${runId}" is driven by another instance: cannot ${what}.`);
  }

  /** Records how a run ended, adds its answer to the conversation's search text, keeps the messages it added and
   *  indexes it for the Runs page. False when it is no longer running (or, with a run bus, may not be closed by
   *  `holder`: the lease holder only; null, the sweep: a run whose lease ran out). The caller found it by an owned
   *  lookup, or is the sweep. */
  async function closeRun(
    db: Db,
    runId: string,
    status: Exclude<RunStatus, 'running'>,
    error: ErrorInfo | undefined,
    holder: string | null,
  ): Promise<boolean> {
    const conversation = await db
      .selectFrom('runs as r')
      .innerJoin('turns as t', 't.id', 'r.turn_id')
      .select('t.conversation_id as id')
      .where('r.id', '=', runId)
      .executeTakeFirst();
    if (!conversation) return false;
    const { title } = await conversationOf(ctx, db, null, conversation.id);
    const events = await eventsOf(db, runId);
    const answer = events
      .map((e) => (e.type === 'text-delta' ? e.text : ''))
      .join('')
      .toLowerCase();
    const { numUpdatedRows } = await db
      .updateTable('runs')
      .set({
        status,
        ended_at: ctx.now(),
        error_json: error ? JSON.stringify(error) : null,
        answer_text: answer,
        messages_json: messagesJson(events),
        ...(bus ? { lease_until: null } : {}),
      })
      .where('id', '=', runId)
      .where('status', '=', 'running')
      .$if(bus !== undefined, (q) => q.where(bus!.mayClose(holder)))
      .executeTakeFirst();
    if (!numUpdatedRows) return false;
    await rebuildSearch(ctx, db, conversation.id, title);
    await indexRun(ctx.d, db, runId, answer, events);
    await bus?.ended(db, runId); // followers on other instances stop waiting
    return true;
  }

  const appendEvents: ChatStore['appendEvents'] = async (owner, runId, events) => {
    if (!events.length) return;
    const types = events.map((e) => e.type);
    const json = events.map((e) => JSON.stringify(e));
    const added = await ctx.d.appendEvents(owner.ownerId, runId, types, json, bus?.instanceId);
    if (added !== events.length) throw await refusal(owner, runId, `append a ${events[0]!.type} event`);
  };

  return {
    async listTurns(owner, conversationId) {
      // One snapshot for the turns, their runs and the events.
      return ctx.read(async (db) => {
        await conversationOf(ctx, db, owner, conversationId, false);
        // Runs come oldest first, so the last one seen for a turn is its latest.
        const latest = new Map<string, RunRow>();
        const counts = new Map<string, number>();
        for (const run of await runsOf(db, conversationId).select(RUN_COLUMNS).execute()) {
          latest.set(run.turn_id, run);
          counts.set(run.turn_id, (counts.get(run.turn_id) ?? 0) + 1);
        }
        const records: TurnRecord[] = [];
        for (const row of await turnsOf(db, conversationId).execute()) {
          const run = latest.get(row.id);
          const events = run ? await eventsOf(db, run.id) : [];
          records.push({ turn: toTurn(row), run: run && toRun(run), events, runCount: counts.get(row.id) ?? 0 });
        }
        return records;
      });
    },

    async listHistory(owner, conversationId) {
      const unkept = new Map<string, Message[]>();
      const history = await ctx.read(async (db) => {
        await conversationOf(ctx, db, owner, conversationId, false);
        const latest = new Map<string, { id: string; status: RunStatus; messages_json: string | null }>();
        for (const run of await runsOf(db, conversationId)
          .select(['r.id', 'r.turn_id', 'r.status', 'r.messages_json'])
          .execute())
          latest.set(run.turn_id, run);
        const turns: HistoryTurn[] = [];
        for (const row of await turnsOf(db, conversationId).execute()) {
          const run = latest.get(row.id);
          let messages = run ? keptMessages(run.messages_json) : [];
          if (!messages) {
            messages = foldEvents(await eventsOf(db, run!.id));
            if (run!.status !== 'running') unkept.set(run!.id, messages);
          }
          turns.push({ turn: toTurn(row), messages });
        }
        return turns;
      });
      // Runs that ended before version 11 keep their messages from now on. Only a cache: a failed write loses nothing.
      for (const [id, messages] of unkept)
        await db
          .updateTable('runs')
          .set({ messages_json: JSON.stringify(messages) })
          .where('id', '=', id)
          .where('status', '<>', 'running')
          .execute()
          .catch(() => undefined);
      return history;
    },

    async startRun(owner, turnId, runId) {
      return ctx.write(async (db) => {
        const turn = await db
          .selectFrom('turns as t')
          .innerJoin('conversations as c', 'c.id', 't.conversation_id')
          .select('t.conversation_id')
          .where('t.id', '=', turnId)
          .where('c.owner_id', '=', owner.ownerId)
          .executeTakeFirst();
        if (!turn) throw new NotFoundError(`Unknown turn id "${turnId}".`);
        await conversationOf(ctx, db, owner, turn.conversation_id);
        // Run ids are made by the server: a clash of any owner's is a bug, not a leak.
        if (await db.selectFrom('runs').select('id').where('id', '=', runId).executeTakeFirst())
          throw new Error(`A run with id "${runId}" already exists.`);
        const at = ctx.now();
        await db
          .insertInto('runs')
          .values({ id: runId, turn_id: turnId, status: 'running', started_at: at, ...bus?.leaseColumns() })
          .execute();
        await db.updateTable('conversations').set({ updated_at: at }).where('id', '=', turn.conversation_id).execute();
        return { id: runId, turnId, status: 'running', startedAt: at };
      });
    },

    appendEvents,
    appendEvent: (owner, runId, event) => appendEvents(owner, runId, [event]),

    async finishRun(owner, runId, status, error) {
      const closed = await ctx.write(async (db) => {
        if (!(await owned(db, owner).select('r.id').where('r.id', '=', runId).executeTakeFirst())) return false;
        return closeRun(db, runId, status, error, bus?.instanceId ?? null);
      });
      if (!closed) throw await refusal(owner, runId, 'finish it');
    },

    async getRun(owner, runId) {
      const row = await owned(db, owner).select(RUN_COLUMNS).where('r.id', '=', runId).executeTakeFirst();
      return row && toRun(row);
    },

    async getRunEvents(owner, runId) {
      if (!(await owned(db, owner).select('r.id').where('r.id', '=', runId).executeTakeFirst()))
        throw new NotFoundError(`Unknown run id "${runId}".`);
      return eventsOf(db, runId);
    },

    async listRuns(owner, turnId) {
      const rows = await owned(db, owner)
        .select(RUN_COLUMNS)
        .where('r.turn_id', '=', turnId)
        .orderBy('r.started_at')
        .orderBy(ctx.ord('r'))
        .execute();
      return rows.map(toRun);
    },

    /** Without a run bus every run left running (one process drives them all, and it has just started); with one,
     *  those whose lease ran out: their instance died (or closed) without finishing them. One transaction per run, so
     *  a sweep never holds many conversations' locks at once. */
    async markInterruptedRuns() {
      const orphans = await db
        .selectFrom('runs')
        .select('id')
        .where('status', '=', 'running')
        .$if(bus !== undefined, (q) => q.where(bus!.mayClose(null)))
        .execute();
      let marked = 0;
      for (const { id } of orphans)
        if (await ctx.write((db) => closeRun(db, id, 'interrupted', undefined, null))) marked++;
      await bus?.dropStaleControls();
      return marked;
    },
  } satisfies Partial<ChatStore>;
}

/** A run's events, oldest first; logs written by an older version are read in today's shape (upgrade.ts). */
export async function eventsOf(db: Db, runId: string): Promise<AgentEvent[]> {
  const rows = await db.selectFrom('run_events').select('json').where('run_id', '=', runId).orderBy('seq').execute();
  return upgradeRunLog(rows.map((row) => JSON.parse(row.json) as unknown));
}

function toRun(row: RunRow): StoredRun {
  const run: StoredRun = { id: row.id, turnId: row.turn_id, status: row.status, startedAt: row.started_at };
  if (row.ended_at !== null) run.endedAt = row.ended_at;
  if (row.error_json !== null) run.error = JSON.parse(row.error_json) as ErrorInfo;
  return run;
}
