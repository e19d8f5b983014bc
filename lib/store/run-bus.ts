// How the instances sharing one database tell each other about runs: a store whose dialect can notify (PostgreSQL's
// LISTEN/NOTIFY, postgres-dialect.ts) offers this beside the ChatStore, and the registry of runs in progress
// (lib/chat/shared-live-runs.ts) uses it to follow, stop and answer runs that another instance drives. A
// single-process store (SQLite) has none.
//
// - The run log is the source: a follower reads events from the store; the bus only says that there is more to read
//   (and when a run ended), it never carries the events themselves.
// - The instance that drives a run holds a lease on it, renewed by a heartbeat; a run whose lease runs out (its
//   instance died) is marked interrupted by another instance. Only the lease holder can append to a run's log or
//   finish it, so two instances never drive the same run.
// - Stops and tool decisions for a run go to the instance that holds it, which answers.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AgentEvent, ToolDecision } from '../protocol/events';
import type { Db, Dialect, Listener } from './dialect';

export type RunControl = { kind: 'stop' } | { kind: 'decide'; functionId: string; decision: ToolDecision };

/** What the driving instance answered: a stop ('stopped', or 'not-running' when the run had ended meanwhile), or
 *  a decision ('decided', 'not-waiting' when the run waits on no such tool call, 'not-running'). */
export type ControlAnswer = 'stopped' | 'decided' | 'not-waiting' | 'not-running';

/** What the registry of runs in progress uses of the bus (the rest is the store's). */
export type RunBus = Omit<SharedRunBus, 'ended' | 'dropStaleControls' | 'maintain' | 'renew' | 'close'>;

export interface BusOptions {
  /** RUN_LEASE_MS: a run's lease lasts this long past its holder's last heartbeat. Default 10 s. */
  leaseMs?: number;
  /** false: no heartbeat or sweep on a timer (a test calls them). Default true. */
  maintenance?: boolean;
}

const DEFAULT_LEASE_MS = 10_000;
/** How long a control waits for the holder's answer. */
const CONTROL_TIMEOUT_MS = 5_000;
/** The channel that says a run's log grew (`<run id> <last seq>`) or that the run ended (`<run id> end`). */
export const EVENTS_CHANNEL = 'agent_studio_run_events';
/** An instance's own channel: `control <id>`, a control for one of its runs; `answer <id>`, the answer to one it
 *  sent. Payloads are ids only: the rows hold the rest, so nothing is lost to NOTIFY's 8000-byte limit, and a
 *  connection that drops and comes back re-reads what it may have missed. */
const OWN_CHANNEL_PREFIX = 'agent_studio_i_';

// Only instances sharing one PostgreSQL database have a bus, so what it says to the database is PostgreSQL's.
/** The database's clock, so the instances' clocks never have to agree; `until(ms)`: `ms` later. */
export const leaseNow = sql<Date>`now()`;
export const leaseUntil = (ms: number) => sql<Date>`now() + ${ms}::integer * interval '1 millisecond'`;
/** Sends a notification when `db`'s transaction commits (at once outside one). */
const notify = (db: Db, channel: string, payload: string) => sql`SELECT pg_notify(${channel}, ${payload})`.execute(db);

/**
 * The run bus over the store's database and its dialect's notifications. Leases: every `heartbeatMs` (leaseMs / 5)
 * an instance renews the leases of the runs it drives to now + leaseMs and marks interrupted every run whose lease
 * ran out (the store's markInterruptedRuns). A killed instance's runs are therefore marked within leaseMs +
 * heartbeatMs of its last heartbeat (12 s with the default RUN_LEASE_MS of 10 s) by any instance still running, or
 * by the next one to start.
 */
export class SharedRunBus {
  /** This instance (one per open store). */
  readonly instanceId = randomUUID().replaceAll('-', '');
  readonly lease: { leaseMs: number; heartbeatMs: number };
  private readonly held = new Set<string>();
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly answers = new Map<number, () => void>();
  private handler?: (runId: string, message: RunControl) => Promise<ControlAnswer>;
  private listener?: Listener;
  private closed = false;
  private timer?: ReturnType<typeof setInterval>;

  private constructor(
    private readonly db: Db,
    leaseMs: number,
  ) {
    this.lease = { leaseMs, heartbeatMs: Math.max(50, Math.round(leaseMs / 5)) };
  }

  /** The bus of a new instance, listening once this resolves. */
  static async start(db: Db, listen: NonNullable<Dialect['listen']>, opts: BusOptions): Promise<SharedRunBus> {
    const bus = new SharedRunBus(db, opts.leaseMs ?? DEFAULT_LEASE_MS);
    bus.listener = await listen(
      bus.instanceId,
      [EVENTS_CHANNEL, OWN_CHANNEL_PREFIX + bus.instanceId],
      (channel, payload) => bus.notified(channel, payload),
      () => void bus.resumed(),
    );
    return bus;
  }

  // --- What the store asks of it ---

  /** Tells followers on other instances that the run ended (at `db`'s commit). */
  async ended(db: Db, runId: string): Promise<void> {
    await notify(db, EVENTS_CHANNEL, `${runId} end`);
  }

  /** Controls nobody will read any more: their run is over. */
  async dropStaleControls(): Promise<void> {
    await this.db
      .deleteFrom('run_controls')
      .where('run_id', 'in', (eb) => eb.selectFrom('runs').select('runs.id').where('runs.status', '<>', 'running'))
      .where('created_at', '<', sql<Date>`now() - interval '1 minute'`)
      .execute();
  }

  // --- Heartbeat ---

  /** Starts the heartbeat: this instance's leases renewed, then `sweep` (the store's markInterruptedRuns) closes the
   *  runs whose lease ran out. A failure is told once, until PostgreSQL answers again. */
  maintain(sweep: () => Promise<number>): void {
    let failing = false;
    const beat = async () => {
      try {
        await this.renew();
        await sweep();
        if (failing) console.error('[store] heartbeat: PostgreSQL answers again');
        failing = false;
      } catch (e) {
        if (!failing && !this.closed)
          console.error(`[store] heartbeat failed (leases not renewed): ${e instanceof Error ? e.message : String(e)}`);
        failing = true;
      }
    };
    this.timer = setInterval(() => void beat(), this.lease.heartbeatMs);
    this.timer.unref();
  }

  async renew(): Promise<void> {
    if (!this.held.size) return;
    await this.db
      .updateTable('runs')
      .set({ lease_until: leaseUntil(this.lease.leaseMs) })
      .where('id', 'in', [...this.held])
      .where('status', '=', 'running')
      .where('lease_holder', '=', this.instanceId)
      .execute();
  }

  /** This instance drives the run (started by this store): its lease is renewed until release. */
  hold(runId: string): void {
    this.held.add(runId);
  }

  release(runId: string): void {
    this.held.delete(runId);
  }

  // --- Following runs ---

  /** The run's events after `afterSeq` (-1: from the first), in order, the seq of the last of them (`afterSeq` when
   *  there is none), and whether it still runs (its lease is held: more may come); undefined when it does not exist. */
  async readTail(runId: string, afterSeq: number) {
    // The run's status and its events after the seq, read in one statement: once it reads as ended, every event is
    // there.
    const rows = await this.db
      .selectFrom('runs as r')
      .leftJoin('run_events as e', (join) => join.onRef('e.run_id', '=', 'r.id').on('e.seq', '>', afterSeq))
      .select(['r.status', 'e.seq', 'e.json'])
      .where('r.id', '=', runId)
      .orderBy('e.seq')
      .execute();
    if (!rows.length) return undefined;
    const events: AgentEvent[] = [];
    let lastSeq = afterSeq;
    for (const row of rows) {
      if (row.seq === null || row.json === null) continue;
      events.push(JSON.parse(row.json) as AgentEvent);
      lastSeq = row.seq;
    }
    return { events, lastSeq, running: rows[0]!.status === 'running' };
  }

  /** Calls `onChange` whenever the run's log may have grown or the run may have ended (after a lost connection
   *  too); resolves once listening, with the function that stops it. */
  async watch(runId: string, onChange: () => void): Promise<() => void> {
    let set = this.watchers.get(runId);
    if (!set) this.watchers.set(runId, (set = new Set()));
    set.add(onChange);
    await this.listener?.ready;
    return () => {
      set.delete(onChange);
      if (!set.size && this.watchers.get(runId) === set) this.watchers.delete(runId);
    };
  }

  /** The runs of a conversation still running, on any instance that is alive (holding their lease: a dead
   *  instance's runs are the sweep's, and hold nobody up). */
  async runningRunsOf(conversationId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('runs as r')
      .innerJoin('turns as t', 't.id', 'r.turn_id')
      .select('r.id')
      .where('t.conversation_id', '=', conversationId)
      .where('r.status', '=', 'running')
      .where('r.lease_until', '>=', leaseNow)
      .execute();
    return rows.map((r) => r.id);
  }

  // --- Controls ---

  /** Who answers the controls sent to this instance (the registry of its runs). */
  onControl(handler: (runId: string, message: RunControl) => Promise<ControlAnswer>): void {
    this.handler = handler;
  }

  /** Sends a stop or a decision to the instance that drives the run and resolves with its answer. */
  async control(runId: string, message: RunControl): Promise<ControlAnswer> {
    const lease = await this.db
      .selectFrom('runs')
      .select(['status', 'lease_holder'])
      .where('id', '=', runId)
      .executeTakeFirst();
    // Held by this instance but not in its registry: nobody drives it any more, and its lease will run out.
    if (!lease || lease.status !== 'running' || !lease.lease_holder || lease.lease_holder === this.instanceId)
      return 'not-running';
    const holder = lease.lease_holder;
    await this.listener?.ready;
    const id = await this.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('run_controls')
        .values({ run_id: runId, holder, sender: this.instanceId, message_json: JSON.stringify(message) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await notify(tx, OWN_CHANNEL_PREFIX + holder, `control ${row.id}`);
      return row.id;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const woken = new Promise<void>((resolve) => {
      this.answers.set(id, resolve);
      timer = setTimeout(resolve, CONTROL_TIMEOUT_MS);
    });
    try {
      // The answer may have come before we listened for it: look once, then wait for the NOTIFY (or the time-out).
      let answer = await this.answerOf(id);
      if (!answer) {
        await woken;
        answer = await this.answerOf(id);
      }
      if (!answer) throw new Error('The instance running this run did not answer in time.');
      await this.db.deleteFrom('run_controls').where('id', '=', id).execute();
      return answer;
    } finally {
      clearTimeout(timer);
      this.answers.delete(id);
    }
  }

  private async answerOf(id: number): Promise<ControlAnswer | undefined> {
    const row = await this.db.selectFrom('run_controls').select('answer').where('id', '=', id).executeTakeFirst();
    return (row?.answer ?? undefined) as ControlAnswer | undefined;
  }

  /** A control sent to this instance: ask the registry, write its answer, tell the sender. */
  private async answerControl(id: number): Promise<void> {
    try {
      const row = await this.db
        .selectFrom('run_controls')
        .select(['run_id', 'message_json'])
        .where('id', '=', id)
        .where('holder', '=', this.instanceId)
        .where('answer', 'is', null)
        .executeTakeFirst();
      if (!row) return; // answered already
      const message = JSON.parse(row.message_json) as RunControl;
      const answer = this.handler ? await this.handler(row.run_id, message) : 'not-running';
      await this.db.transaction().execute(async (tx) => {
        const sent = await tx
          .updateTable('run_controls')
          .set({ answer })
          .where('id', '=', id)
          .returning('sender')
          .executeTakeFirst();
        if (sent) await notify(tx, OWN_CHANNEL_PREFIX + sent.sender, `answer ${id}`);
      });
    } catch (e) {
      if (!this.closed) console.error(`[store] a run control failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private notified(channel: string, payload: string): void {
    const space = payload.lastIndexOf(' ');
    if (channel === EVENTS_CHANNEL) {
      for (const onChange of this.watchers.get(payload.slice(0, space)) ?? []) onChange();
      return;
    }
    const id = Number(payload.slice(space + 1));
    if (payload.startsWith('control ')) void this.answerControl(id);
    else if (payload.startsWith('answer ')) this.answers.get(id)?.();
  }

  /** After the listening connection came back: what it may have missed is read again (every watched run, every
   *  control left unanswered). */
  private async resumed(): Promise<void> {
    for (const set of this.watchers.values()) for (const onChange of set) onChange();
    const rows = await this.db
      .selectFrom('run_controls')
      .select('id')
      .where('holder', '=', this.instanceId)
      .where('answer', 'is', null)
      .orderBy('id')
      .execute()
      .catch(() => []);
    for (const row of rows) void this.answerControl(row.id);
  }

  /** This instance is going away (SIGTERM): the heartbeat stops and every lease it holds ends now, so another
   *  instance marks whatever is still running interrupted at its next heartbeat. */
  async releaseAll(): Promise<void> {
    clearInterval(this.timer);
    await this.db
      .updateTable('runs')
      .set({ lease_until: leaseNow })
      .where('lease_holder', '=', this.instanceId)
      .where('status', '=', 'running')
      .execute()
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.releaseAll();
    await this.listener?.stop();
  }
}
