// The run bus on PostgreSQL (run-bus.ts says what it is for): LISTEN/NOTIFY on one dedicated connection per
// instance, leases renewed by a heartbeat, and controls (stop, tool decisions) as rows of run_controls that a NOTIFY
// points the holder at.
//
// Channels: every instance listens on EVENTS_CHANNEL (`<run id> <last seq>` when a batch of events is stored,
// `<run id> end` when a run ends) and on a channel of its own (`control <id>`: a control for one of its runs;
// `answer <id>`: the answer to a control it sent). Payloads are ids only: the rows hold the rest, so nothing is lost
// to NOTIFY's 8000-byte limit, and a connection that drops and comes back re-reads what it may have missed.
//
// Leases: every `heartbeatMs` (leaseMs / 5) an instance renews the leases of the runs it drives to now + leaseMs
// and marks interrupted every run whose lease ran out (markInterruptedRuns). A killed instance's runs are therefore
// marked within leaseMs + heartbeatMs of its last heartbeat (12 s with the default RUN_LEASE_MS of 10 s) by any
// instance still running, or by the next one to start.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { AgentEvent } from '../protocol/events';
import { EVENTS_CHANNEL, run } from './pg-statements';
import type { ControlAnswer, LeaseTimes, RunBus, RunControl, RunTail } from './run-bus';

export interface PgBusOptions {
  /** RUN_LEASE_MS: a run's lease lasts this long past its holder's last heartbeat. Default 10 s. */
  leaseMs?: number;
  /** false: no heartbeat or sweep on a timer (a test calls them). Default true. */
  maintenance?: boolean;
  /** How long a control waits for the holder's answer. Default 5 s. */
  controlTimeoutMs?: number;
}

export const DEFAULT_LEASE_MS = 10_000;
const DEFAULT_CONTROL_TIMEOUT_MS = 5_000;
const OWN_CHANNEL_PREFIX = 'agent_studio_i_';
const RECONNECT_MAX_MS = 2_000;

export class ControlTimeoutError extends Error {
  override name = 'ControlTimeoutError';
}

export function leaseTimes(leaseMs = DEFAULT_LEASE_MS): LeaseTimes {
  return { leaseMs, heartbeatMs: Math.max(50, Math.round(leaseMs / 5)) };
}

export class PgRunBus implements RunBus {
  readonly instanceId = randomUUID().replaceAll('-', '');
  readonly lease: LeaseTimes;
  private readonly held = new Set<string>();
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly answers = new Map<number, () => void>();
  private handler?: (runId: string, message: RunControl) => Promise<ControlAnswer>;
  private listener?: pg.Client;
  private listening: Promise<void>;
  private closed = false;
  private timer?: ReturnType<typeof setInterval>;
  private failing = false;
  private readonly controlTimeoutMs: number;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    opts: PgBusOptions,
  ) {
    this.lease = leaseTimes(opts.leaseMs);
    this.controlTimeoutMs = opts.controlTimeoutMs ?? DEFAULT_CONTROL_TIMEOUT_MS;
    this.listening = this.listen();
  }

  /** The bus of a new instance, listening once this resolves. */
  static async start(pool: pg.Pool, url: string, opts: PgBusOptions): Promise<PgRunBus> {
    const bus = new PgRunBus(pool, url, opts);
    await bus.listening;
    return bus;
  }

  private get ownChannel(): string {
    return OWN_CHANNEL_PREFIX + this.instanceId;
  }

  /** Starts the heartbeat: leases renewed, then `sweep` (the store's markInterruptedRuns). */
  maintain(sweep: () => Promise<number>): void {
    this.timer = setInterval(() => void this.beat(sweep), this.lease.heartbeatMs);
    this.timer.unref();
  }

  /** One heartbeat: renew this instance's leases, then close the runs whose lease ran out. */
  async beat(sweep: () => Promise<number>): Promise<void> {
    try {
      await this.renew();
      await sweep();
      if (this.failing) console.error('[store] heartbeat: PostgreSQL answers again');
      this.failing = false;
    } catch (e) {
      if (!this.failing && !this.closed)
        console.error(`[store] heartbeat failed (leases not renewed): ${e instanceof Error ? e.message : String(e)}`);
      this.failing = true;
    }
  }

  async renew(): Promise<void> {
    if (this.held.size) await run(this.pool, 'renewLeases', [[...this.held], this.instanceId, this.lease.leaseMs]);
  }

  hold(runId: string): void {
    this.held.add(runId);
  }

  release(runId: string): void {
    this.held.delete(runId);
  }

  async readTail(runId: string, afterSeq: number): Promise<RunTail | undefined> {
    const { rows } = await run<{ status: string; seq: number | null; json: string | null }>(this.pool, 'tail', [
      runId,
      afterSeq,
    ]);
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

  async watch(runId: string, onChange: () => void): Promise<() => void> {
    let set = this.watchers.get(runId);
    if (!set) this.watchers.set(runId, (set = new Set()));
    set.add(onChange);
    await this.listening;
    return () => {
      set.delete(onChange);
      if (!set.size && this.watchers.get(runId) === set) this.watchers.delete(runId);
    };
  }

  async runningRunsOf(conversationId: string): Promise<string[]> {
    return (await run<{ id: string }>(this.pool, 'runningOfConversation', [conversationId])).rows.map((r) => r.id);
  }

  onControl(handler: (runId: string, message: RunControl) => Promise<ControlAnswer>): void {
    this.handler = handler;
  }

  async control(runId: string, message: RunControl): Promise<ControlAnswer> {
    const lease = (await run<{ status: string; lease_holder: string | null }>(this.pool, 'leaseOf', [runId])).rows[0];
    // Held by this instance but not in its registry: nobody drives it any more, and its lease will run out.
    if (!lease || lease.status !== 'running' || !lease.lease_holder || lease.lease_holder === this.instanceId)
      return 'not-running';
    await this.listening;
    const holderChannel = OWN_CHANNEL_PREFIX + lease.lease_holder;
    const { rows } = await run<{ id: number }>(this.pool, 'insertControl', [
      runId,
      lease.lease_holder,
      this.instanceId,
      JSON.stringify(message),
      holderChannel,
    ]);
    const id = rows[0]!.id;
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.answers.set(id, wake);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.controlTimeoutMs)));
      // The answer may have come before we listened for it: look once, then wait for the NOTIFY (or the time-out).
      let answer = await this.answerOf(id);
      if (!answer) {
        await Promise.race([woken, timedOut]);
        answer = await this.answerOf(id);
      }
      if (!answer) throw new ControlTimeoutError('The instance running this run did not answer in time.');
      await run(this.pool, 'deleteControl', [id]);
      return answer;
    } finally {
      clearTimeout(timer);
      this.answers.delete(id);
    }
  }

  private async answerOf(id: number): Promise<ControlAnswer | undefined> {
    const row = (await run<{ answer: string | null }>(this.pool, 'controlAnswer', [id])).rows[0];
    return (row?.answer ?? undefined) as ControlAnswer | undefined;
  }

  /** A control sent to this instance: ask the registry, write its answer, tell the sender. */
  private async answerControl(id: number): Promise<void> {
    try {
      const row = (await run<{ run_id: string; message_json: string }>(this.pool, 'control', [id, this.instanceId]))
        .rows[0];
      if (!row) return; // answered already
      const message = JSON.parse(row.message_json) as RunControl;
      const answer = this.handler ? await this.handler(row.run_id, message) : 'not-running';
      await run(this.pool, 'answerControl', [id, answer, OWN_CHANNEL_PREFIX]);
    } catch (e) {
      if (!this.closed) console.error(`[store] a run control failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private onNotification(msg: pg.Notification): void {
    const payload = msg.payload ?? '';
    const space = payload.lastIndexOf(' ');
    if (msg.channel === EVENTS_CHANNEL) {
      for (const onChange of this.watchers.get(payload.slice(0, space)) ?? []) onChange();
      return;
    }
    const id = Number(payload.slice(space + 1));
    if (payload.startsWith('control ')) void this.answerControl(id);
    else if (payload.startsWith('answer ')) this.answers.get(id)?.();
  }

  /** Connects the listening connection; after a drop, connects again (with back-off) and re-reads what it may
   *  have missed: every watched run, every control left unanswered. */
  private async listen(attempt = 0): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: `agent-studio listener ${this.instanceId}`,
    });
    client.on('notification', (msg) => this.onNotification(msg));
    client.on('error', () => undefined); // 'end' follows; reconnecting is done there
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      await client.query(`LISTEN "${this.ownChannel}"`);
    } catch (e) {
      await client.end().catch(() => undefined);
      if (this.closed) return;
      if (attempt === 0 && !this.listener) throw e; // the first connection: the store fails to open
      await delay(Math.min(RECONNECT_MAX_MS, 100 * 2 ** attempt));
      return this.listen(attempt + 1);
    }
    this.listener = client;
    client.once('end', () => {
      if (this.closed) return;
      console.error('[store] the PostgreSQL listener connection dropped; reconnecting');
      this.listening = this.listen(1);
    });
    if (attempt > 0) {
      for (const set of this.watchers.values()) for (const onChange of set) onChange();
      const { rows } = await run<{ id: number }>(this.pool, 'unansweredControls', [this.instanceId]).catch(() => ({
        rows: [] as { id: number }[],
      }));
      for (const row of rows) void this.answerControl(row.id);
    }
  }

  async releaseAll(): Promise<void> {
    clearInterval(this.timer);
    // Runs still held are cut off with this instance: their leases end now, so another instance marks them
    // interrupted at its next heartbeat instead of after a whole lease.
    await run(this.pool, 'releaseLeases', [this.instanceId]).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.releaseAll();
    await this.listener?.end().catch(() => undefined);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
