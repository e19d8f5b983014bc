// Two instances in one process, each with its own PostgreSQL store (its own pool, listener and instance id) on one
// real database: a run driven by A is followed, stopped and decided from B, and B hears of its end however it ends.
import { describe, expect, it } from 'vitest';
import { postgresMissing, queryRows } from '../../test/support/postgres';
import { postgresInstances } from '../../test/support/postgres-instances';
import type { AgentEvent } from '../protocol/events';
import type { PostgresChatStore, PostgresStoreOptions } from '../store';
import { SharedLiveRuns } from './shared-live-runs';
import { ownerScope } from '../store/owner';

const OWNER = ownerScope('owner-a');
const STRANGER = ownerScope('owner-b');

const missing = postgresMissing();

const text = (t: number, s: string): AgentEvent => ({ type: 'text-delta', runId: 'r', iteration: 1, t, text: s });
const runEnd: AgentEvent = {
  type: 'run-end',
  runId: 'r',
  iteration: 0,
  t: 9,
  reason: 'answered',
  llmCalls: 1,
  toolCalls: 0,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  durationMs: 9,
};

async function read(events: AsyncGenerator<AgentEvent> | undefined): Promise<string[]> {
  if (!events) throw new Error('not in progress');
  const out: string[] = [];
  for await (const e of events) out.push(e.type === 'text-delta' ? e.text : e.type);
  return out;
}

const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

if (missing) {
  describe('SharedLiveRuns', () => it.skip(`skipped: ${missing}`, () => undefined));
} else {
  describe('SharedLiveRuns (two instances on one PostgreSQL database)', () => {
    const pg = postgresInstances('live');
    const instance = async (opts: PostgresStoreOptions = {}) => {
      const store = await pg.open(opts);
      return { store, runs: new SharedLiveRuns(store, store.runBus) };
    };

    /** A run 'r' started on `a`, as the chat service starts one. */
    async function started(a: Awaited<ReturnType<typeof instance>>) {
      const conversation = await a.store.createConversation(OWNER);
      await a.store.addTurnWithRun(OWNER, conversation.id, 'q', 'r');
      return { conversationId: conversation.id, writer: a.runs.start(OWNER, 'r', conversation.id) };
    }

    it('follows from B a run A drives, from its first event to its end, as A stores them', async () => {
      const a = await instance();
      const b = await instance();
      const { writer } = await started(a);
      writer.push(text(1, 'before'));
      await tick();
      const early = read(await b.runs.follow(OWNER, 'r'));
      const merged = read(await b.runs.follow(OWNER, 'r', { coalesceMs: 20 }));
      const ended = b.runs.ended('r');
      for (const [i, s] of ['one ', 'two ', 'three'].entries()) {
        writer.push(text(i + 2, s));
        await tick(5);
      }
      writer.push(runEnd);
      await writer.end();
      expect(await early).toEqual(['before', 'one ', 'two ', 'three', 'run-end']);
      expect((await merged).join('')).toBe('beforeone two threerun-end');
      await ended;
      expect(await b.runs.follow(OWNER, 'r')).toBeUndefined(); // over: its log holds it
      expect(await b.runs.stop(OWNER, 'r')).toBe(false);
    });

    it("answers another owner on B as if A's run were not in progress: no follow, stop, decision or stop-all", async () => {
      const a = await instance();
      const b = await instance();
      const { writer, conversationId } = await started(a);
      writer.push(text(1, 'private'));
      const waiting = writer.awaitDecision('f1');
      expect(await b.runs.follow(STRANGER, 'r')).toBeUndefined();
      expect(await b.runs.stop(STRANGER, 'r')).toBe(false);
      expect(await b.runs.decide(STRANGER, 'r', 'f1', { action: 'skip' })).toBe('not-running');
      await b.runs.stopConversation(STRANGER, conversationId);
      expect(writer.signal.aborted).toBe(false);
      // The owner, on either instance, still reaches it.
      expect(await b.runs.decide(OWNER, 'r', 'f1', { action: 'skip' })).toBe('decided');
      expect(await waiting).toEqual({ action: 'skip' });
      writer.push(runEnd);
      await writer.end();
    });

    it('stops from B a run A drives; a page leaving on B stops it too when asked', async () => {
      const a = await instance();
      const b = await instance();
      const { writer } = await started(a);
      writer.push(text(1, 'a'));
      expect(await b.runs.stop(OWNER, 'r')).toBe(true);
      expect(writer.signal.aborted).toBe(true);
      await writer.end();

      // A second run: its follower on B leaves early and stops it.
      await a.store.addTurnWithRun(OWNER, (await a.store.createConversation(OWNER)).id, 'q2', 'r2');
      const second = a.runs.start(OWNER, 'r2', 'c2');
      second.push({ ...text(1, 'x'), runId: 'r2' });
      const follower = (await b.runs.follow(OWNER, 'r2', { onLeave: () => void b.runs.stop(OWNER, 'r2') }))!;
      await follower.next();
      await follower.return(undefined);
      await expect.poll(() => second.signal.aborted).toBe(true);
      await second.end();
    });

    it("hands B's decision to the tool call A waits on, and says when no call waits or the run is over", async () => {
      const a = await instance();
      const b = await instance();
      const { writer } = await started(a);
      expect(await b.runs.decide(OWNER, 'r', 'f1', { action: 'skip' })).toBe('not-waiting');
      const decision = writer.awaitDecision('f1');
      const long = 'supplied '.repeat(2_000); // past NOTIFY's 8000-byte payload: the row carries it
      expect(await b.runs.decide(OWNER, 'r', 'f1', { action: 'supply', content: long })).toBe('decided');
      expect(await decision).toEqual({ action: 'supply', content: long });
      writer.push(runEnd);
      await writer.end();
      expect(await b.runs.decide(OWNER, 'r', 'f1', { action: 'skip' })).toBe('not-running');
      expect(await queryRows(pg.url(), 'SELECT id FROM run_controls')).toEqual([]); // answered controls are gone
    });

    it("stops a conversation's runs on every instance and waits for them to end", async () => {
      const a = await instance();
      const b = await instance();
      const { writer, conversationId } = await started(a);
      const waiting = writer.awaitDecision('f1').catch(() => 'stopped');
      let endedAt = 0;
      void (async () => {
        await waiting;
        await tick(50);
        writer.push(runEnd);
        await writer.end();
        endedAt = Date.now();
      })();
      await b.runs.stopConversation(OWNER, conversationId);
      expect(await waiting).toBe('stopped');
      expect((await b.store.getRun(OWNER, 'r'))?.status).toBe('answered'); // ended, its last event stored
      await expect.poll(() => endedAt).toBeGreaterThan(0);
    });

    it("ends B's follower when A's run is marked interrupted (its lease ran out), keeping what was streamed", async () => {
      const a = await instance({ leaseMs: 300 });
      const b = await instance({ leaseMs: 300 });
      const { writer } = await started(a);
      writer.push(text(1, 'streamed'));
      await tick();
      const following = read(await b.runs.follow(OWNER, 'r'));
      await tick(400); // A renews nothing (no heartbeat in this test), as if it had been killed
      expect(await b.store.markInterruptedRuns()).toBe(1);
      expect(await following).toEqual(['streamed']);
      writer.push(text(2, 'too late'));
      await writer.end();
      expect(writer.failed).toBe(true);
      expect(await b.store.getRunEvents(OWNER, 'r')).toEqual([text(1, 'streamed')]);
    });

    it('keeps following after its listening connection is cut, and answers controls sent meanwhile', async () => {
      const a = await instance();
      const b = await instance();
      const { writer } = await started(a);
      const seen: string[] = [];
      const following = (async () => {
        for await (const e of (await b.runs.follow(OWNER, 'r'))!) seen.push(e.type === 'text-delta' ? e.text : e.type);
        return seen;
      })();
      writer.push(text(1, 'one'));
      await expect.poll(() => seen).toEqual(['one']);
      const cut = async (who: PostgresChatStore) =>
        queryRows(pg.url(), 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
          `agent-studio listener ${who.runBus.instanceId}`,
        ]);
      await cut(b.store);
      writer.push(text(2, 'two')); // its NOTIFY may find B's listener gone: B reads again once it is back
      await expect.poll(() => seen, { timeout: 1_000 }).toEqual(['one', 'two']);
      await cut(a.store);
      const decision = writer.awaitDecision('f1');
      expect(await b.runs.decide(OWNER, 'r', 'f1', { action: 'skip' })).toBe('decided');
      expect(await decision).toEqual({ action: 'skip' });
      writer.push(runEnd);
      await writer.end();
      expect(await following).toEqual(['one', 'two', 'run-end']);
    });
  });
}
