// Runs (each turn's answers: regenerate and replay add more) and their event logs, for their conversation's owner
// only. A run is written while it streams (appendEvents, the hot path: the dialect's own statement) and closed once:
// its status, its answer's text for search, the messages it added (so that the next run's history reads one row per
// turn), and its row in the Runs page's index, all in one transaction. With a run bus (instances sharing the
// database) only the instance that holds a run's lease writes it; a run whose lease ran out is marked interrupted.
// A conversation answers one message at a time: a run starts only while none of its conversation runs, decided in the
// transaction that inserts it, under the conversation's row lock; a new message goes in with its run, in that same
// transaction (addTurnWithRun), and so do the turns a regenerate or an edit drops: all of it, or none.
//
// What an ended run added to its conversation is kept with the run (schema version 11): the next run's history then
// reads one row per turn instead of every event of every run, which grew with the conversation (about 12 ms for 40
// turns of a few hundred events on SQLite, before each first model call).
import { sql } from 'kysely';
import { foldEvents } from '../agent/fold';
import type { Message } from '../llm/schema';
import type { RunStatus } from '../protocol/enums';
import type { AgentEvent, ErrorInfo } from '../protocol/events';
import {
  appendTurn,
  conversationOf,
  dropTurnsFrom,
  ownedTurn,
  rebuildSearch,
  saveSettings,
  touch,
  TURN_COLUMNS,
} from './conversations';
import type { Db, Dialect } from './dialect';
import { ConversationBusyError, NotFoundError } from './errors';
import type { OwnerScope } from './owner';
import { cols, fromRow, query, toJson, type Query } from './query';
import { leaseNow, leaseUntil } from './run-bus';
import { indexRun } from './run-index';
import type { Ctx } from './context';
import type { ChatStore, HistoryTurn, StoredRun, StoredTurn } from './types';
import { upgradeRunLog } from '../agent/upgrade-log';

const RUN_COLUMNS = ['r.id', 'r.turn_id', 'r.status', 'r.started_at', 'r.ended_at', 'r.error_json'] as const;

const withConversation = (d: Dialect) =>
  d.db
    .selectFrom('runs as r')
    .innerJoin('turns as t', 't.id', 'r.turn_id')
    .innerJoin('conversations as c', 'c.id', 't.conversation_id');
const owned = (d: Dialect, owner: never) => withConversation(d).where('c.owner_id', '=', owner);
/** What closing and indexing a run need of it and of its conversation (`lock`: locked for the transaction that
 *  closes the run, where the database locks rows). */
const facts = (lock: boolean) =>
  query((d, p) =>
    withConversation(d)
      .select(['r.started_at', 'r.ended_at', 'r.status as outcome', 't.search_text as message', 'c.owner_id'])
      .select(['c.id as conversation_id', 'c.title'])
      .where('r.id', '=', p('id'))
      .$if(lock && d.rowLocks, (q) => q.forUpdate('c')),
  );
/** A conversation's runs, oldest first (after an owned lookup). */
const ofConversation = (d: Dialect, conversation: never) =>
  d.db
    .selectFrom('runs as r')
    .innerJoin('turns as t', 't.id', 'r.turn_id')
    .where('t.conversation_id', '=', conversation)
    .orderBy('r.started_at')
    .orderBy(sql.ref(`r.${d.ord}`));

const Q = {
  run: query((d, p) => owned(d, p('owner')).select(RUN_COLUMNS).where('r.id', '=', p('id')), fromRow<StoredRun>),
  ofTurn: query(
    (d, p) =>
      owned(d, p('owner'))
        .select(RUN_COLUMNS)
        .where('r.turn_id', '=', p('turn'))
        .orderBy('r.started_at')
        .orderBy(sql.ref(`r.${d.ord}`)),
    fromRow<StoredRun>,
  ),
  ofConversation: query((d, p) => ofConversation(d, p('conversation')).select(RUN_COLUMNS)),
  // Only what the history needs: reading the other columns costs a tenth of listHistory on SQLite.
  history: query((d, p) =>
    ofConversation(d, p('conversation')).select(['r.id', 'r.turn_id', 'r.status', 'r.messages_json']),
  ),
  turns: query(
    (d, p) =>
      d.db
        .selectFrom('turns as t')
        .select(TURN_COLUMNS)
        .where('t.conversation_id', '=', p('conversation'))
        .orderBy('t.seq'),
    fromRow<StoredTurn>,
  ),
  events: query((d, p) => d.db.selectFrom('run_events').select('json').where('run_id', '=', p('id')).orderBy('seq')),
  exists: query((d, p) => d.db.selectFrom('runs').select('id').where('id', '=', p('id'))),
  /** The conversation's runs still running; with a run bus, with whether their lease is live (a dead instance's ran
   *  out). */
  going: query((d, p) =>
    d.db
      .selectFrom('runs as r')
      .innerJoin('turns as t', 't.id', 'r.turn_id')
      .select('r.id')
      .select(
        d.listen
          ? sql<boolean>`coalesce(r.lease_until >= ${leaseNow}, false)`.as('live')
          : sql<boolean>`true`.as('live'),
      )
      .where('t.conversation_id', '=', p('conversation'))
      .where('r.status', '=', 'running'),
  ),
  // The instance that starts a run holds its lease from the start.
  start: query((d, p) =>
    d.db.insertInto('runs').values({
      id: p('id'),
      turn_id: p('turn'),
      status: 'running',
      started_at: p('at'),
      ...(d.listen ? { lease_holder: p('holder'), lease_until: leaseUntil(p('leaseMs')) } : {}),
    }),
  ),
  closing: facts(true),
  /** Only a running run closes; with a run bus, by its lease holder, or (no holder: the sweep) once its lease ran
   *  out. */
  close: query((d, p) =>
    d.db
      .updateTable('runs')
      .set({
        ...cols(p, ['status', 'ended_at', 'error_json', 'answer_text', 'messages_json']),
        ...(d.listen ? { lease_until: null } : {}),
      })
      .where('id', '=', p('id'))
      .where('status', '=', 'running')
      .$if(d.listen !== undefined, (q) => q.where(mayClose(p('holder')))),
  ),
  orphans: query((d) =>
    d.db
      .selectFrom('runs')
      .select('id')
      .where('status', '=', 'running')
      .$if(d.listen !== undefined, (q) => q.where(mayClose(null as never))),
  ),
  facts: facts(false),
  unindexed: query((d) =>
    d.db
      .selectFrom('runs as r')
      .select(['r.id', 'r.answer_text'])
      .where('r.status', '<>', 'running')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('run_summaries as s').select('s.id').whereRef('s.run_id', '=', 'r.id'))),
      ),
  ),
  keep: query((d, p) =>
    d.db
      .updateTable('runs')
      .set({ messages_json: p('messages') })
      .where('id', '=', p('id'))
      .where('status', '<>', 'running'),
  ),
};

/** Whether `holder` may close a running run: its lease holder; without one (the sweep), anyone once it ran out. */
function mayClose(holder: never) {
  return sql<boolean>`CASE WHEN CAST(${holder} AS text) IS NULL
                        THEN (lease_until IS NULL OR lease_until < ${leaseNow}) ELSE lease_holder = ${holder} END`;
}

export function runStore(ctx: Ctx) {
  const { db, bus } = ctx;
  const ownedRun = (db: Db, owner: OwnerScope, id: string) => Q.run.first(ctx, db, { owner: owner.ownerId, id });

  /** Why a write to a run was refused: unknown (or another owner's), no longer running, or another instance's. */
  async function refusal(owner: OwnerScope, runId: string, what: string): Promise<Error> {
    const row = await ownedRun(db, owner, runId);
    if (!row) return new NotFoundError(`Unknown run id "${runId}": cannot ${what}.`);
    if (row.status !== 'running')
      return new Error(`Run "${runId}" is ${row.status}, no longer running: cannot ${what}.`);
    return new Error(`Run "${runId}" is driven by another instance: cannot ${what}.`);
  }

  /** Records how a run ended, adds its answer to the conversation's search text, keeps the messages it added and
   *  indexes it for the Runs page. False when it may not (see Q.close). The caller found it by an owned lookup, or
   *  is the sweep. */
  async function closeRun(
    db: Db,
    runId: string,
    status: Exclude<RunStatus, 'running'>,
    error: ErrorInfo | undefined,
    holder: string | null,
  ): Promise<boolean> {
    const run = await Q.closing.first(ctx, db, { id: runId });
    if (!run) return false;
    const events = await eventsOf(ctx, db, runId);
    const answer = events
      .map((e) => (e.type === 'text-delta' ? e.text : ''))
      .join('')
      .toLowerCase();
    const at = ctx.now();
    const closed = await Q.close.run(ctx, db, {
      id: runId,
      status,
      ended_at: at,
      error_json: error ? toJson(error) : null,
      answer_text: answer,
      messages_json: toJson(foldEvents(events, status)),
      holder,
    });
    if (!closed) return false;
    await rebuildSearch(ctx, db, run.conversation_id, run.title);
    await indexRun(ctx, db, runId, { ...run, ended_at: at, outcome: status }, answer, events);
    await bus?.ended(db, runId); // followers on other instances stop waiting
    return true;
  }

  /** ConversationBusyError while a run of the conversation is running; in the transaction that starts one, which
   *  locked the conversation (PostgreSQL: a start on another instance waits here, then sees the run it committed).
   *  A run whose lease ran out is a dead instance's: it is marked interrupted now, as the sweep would, instead of
   *  holding the user up until then. */
  async function refuseWhileRunning(db: Db, conversationId: string): Promise<void> {
    for (const run of await Q.going.all(ctx, db, { conversation: conversationId }))
      if (run.live || !(await closeRun(db, run.id, 'interrupted', undefined, null))) throw new ConversationBusyError();
  }

  /** The turn's new run, held by this instance from the start (in the transaction that checked its conversation). */
  async function insertRun(db: Db, turn: StoredTurn, runId: string): Promise<StoredRun> {
    // Run ids are made by the server: a clash of any owner's is a bug, not a leak.
    if (await Q.exists.first(ctx, db, { id: runId })) throw new Error(`A run with id "${runId}" already exists.`);
    const at = ctx.now();
    await Q.start.run(ctx, db, {
      id: runId,
      turn: turn.id,
      at,
      holder: bus?.instanceId,
      leaseMs: bus?.lease.leaseMs,
    });
    await touch.run(ctx, db, { id: turn.conversationId, updated_at: at });
    return { id: runId, turnId: turn.id, status: 'running', startedAt: at };
  }

  /** The conversation's turns in order, each with its latest run and how many it had, in `db`'s snapshot. */
  async function turnsWithRuns<R extends { turn_id: string }>(
    db: Db,
    owner: OwnerScope,
    conversationId: string,
    runs: Query<R>,
  ) {
    await conversationOf(ctx, db, owner, conversationId, false);
    // Runs come oldest first, so the last one seen for a turn is its latest.
    const latest = new Map<string, R>();
    const counts = new Map<string, number>();
    for (const run of await runs.all(ctx, db, { conversation: conversationId })) {
      latest.set(run.turn_id, run);
      counts.set(run.turn_id, (counts.get(run.turn_id) ?? 0) + 1);
    }
    const turns = await Q.turns.all(ctx, db, { conversation: conversationId });
    return turns.map((turn) => ({ turn, run: latest.get(turn.id), runCount: counts.get(turn.id) ?? 0 }));
  }

  return {
    async listTurns(owner, conversationId) {
      // One snapshot for the turns, their runs and the events.
      return ctx.read(async (db) =>
        Promise.all(
          (await turnsWithRuns(db, owner, conversationId, Q.ofConversation)).map(async ({ turn, run, runCount }) => ({
            turn,
            run: run && fromRow<StoredRun>(run),
            events: run ? await eventsOf(ctx, db, run.id) : [],
            runCount,
          })),
        ),
      );
    },

    async listHistory(owner, conversationId) {
      const unkept = new Map<string, Message[]>();
      const history = await ctx.read(async (db) => {
        const turns: HistoryTurn[] = [];
        for (const { turn, run } of await turnsWithRuns(db, owner, conversationId, Q.history)) {
          let messages = run?.messages_json ? (JSON.parse(run.messages_json) as Message[]) : [];
          if (run && run.messages_json === null) {
            // Running, or ended before version 11.
            const ended = run.status === 'running' ? undefined : run.status;
            messages = foldEvents(await eventsOf(ctx, db, run.id), ended);
            if (ended) unkept.set(run.id, messages);
          }
          turns.push({ turn, messages });
        }
        return turns;
      });
      // Runs that ended before version 11 keep their messages from now on. Only a cache: a failed write loses nothing.
      for (const [id, messages] of unkept)
        await Q.keep.run(ctx, db, { id, messages: toJson(messages) }).catch(() => undefined);
      return history;
    },

    async startRun(owner, turnId, runId, opts = {}) {
      return ctx.write(async (db) => {
        const turn = await ownedTurn.first(ctx, db, { id: turnId, owner: owner.ownerId });
        if (!turn) throw new NotFoundError(`Unknown turn id "${turnId}".`);
        const conversation = await conversationOf(ctx, db, owner, turn.conversationId);
        await refuseWhileRunning(db, turn.conversationId);
        if (opts.dropLater) await dropTurnsFrom.run(ctx, db, { conversation: turn.conversationId, seq: turn.seq + 1 });
        const run = await insertRun(db, turn, runId);
        if (opts.dropLater) await rebuildSearch(ctx, db, turn.conversationId, conversation.title);
        return run;
      });
    },

    async addTurnWithRun(owner, conversationId, content, runId, opts = {}) {
      return ctx.write(async (db) => {
        const conversation = await conversationOf(ctx, db, owner, conversationId);
        await refuseWhileRunning(db, conversationId);
        if (opts.settings) await saveSettings(ctx, db, conversation, opts.settings);
        if (opts.replacing !== undefined)
          await dropTurnsFrom.run(ctx, db, { conversation: conversationId, seq: opts.replacing });
        const turn = await appendTurn(ctx, db, conversationId, content);
        const run = await insertRun(db, turn, runId);
        await rebuildSearch(ctx, db, conversationId, conversation.title);
        return { turn, run };
      });
    },

    async appendEvents(owner, runId, events) {
      if (!events.length) return 0;
      const types = events.map((e) => e.type);
      const json = events.map((e) => JSON.stringify(e));
      const added = await ctx.d.appendEvents(owner.ownerId, runId, types, json, bus?.instanceId);
      if (added !== events.length) throw await refusal(owner, runId, `append a ${events[0]!.type} event`);
      return json.reduce((bytes, j) => bytes + Buffer.byteLength(j), 0);
    },

    async finishRun(owner, runId, status, error) {
      const closed = await ctx.write(
        async (db) =>
          !!(await ownedRun(db, owner, runId)) && closeRun(db, runId, status, error, bus?.instanceId ?? null),
      );
      if (!closed) throw await refusal(owner, runId, 'finish it');
    },

    getRun: (owner, runId) => ownedRun(db, owner, runId),

    async getRunEvents(owner, runId) {
      if (!(await ownedRun(db, owner, runId))) throw new NotFoundError(`Unknown run id "${runId}".`);
      return eventsOf(ctx, db, runId);
    },

    listRuns: (owner, turnId) => Q.ofTurn.all(ctx, db, { owner: owner.ownerId, turn: turnId }),

    /** One transaction per run, so a sweep never holds many conversations' locks at once. */
    async markInterruptedRuns() {
      let marked = 0;
      for (const { id } of await Q.orphans.all(ctx, db))
        if (await ctx.write((db) => closeRun(db, id, 'interrupted', undefined, null))) marked++;
      await bus?.dropStaleControls();
      return marked;
    },
  } satisfies Partial<ChatStore>;
}

/** Indexes every ended run that is not yet (those that ended before the index existed, or whose summary a migration
 *  dropped), in the migrations' transaction. Resolves with how many. */
export async function indexUnindexed(ctx: { d: Dialect }, db: Db): Promise<number> {
  const runs = await Q.unindexed.all(ctx, db);
  for (const { id, answer_text } of runs) {
    const run = await Q.facts.first(ctx, db, { id });
    if (run) await indexRun(ctx, db, id, run, answer_text ?? '', await eventsOf(ctx, db, id));
  }
  return runs.length;
}

/** A run's events, oldest first; logs written by an older version are read in today's shape
 *  (lib/agent/upgrade-log.ts). */
async function eventsOf(ctx: { d: Dialect }, db: Db, runId: string): Promise<AgentEvent[]> {
  const rows = await Q.events.all(ctx, db, { id: runId });
  return upgradeRunLog(rows.map((row) => JSON.parse(row.json) as unknown));
}
