// PostgreSQL stopped mid-run (pg_ctl stop -m fast) and started again, under an instance of the built app that keeps
// running: the run's stream ends with an error the page shows, the run is marked interrupted once the database is
// back (nothing of it is left `running`), and a new chat works without restarting the app. The server is the test's
// own (scripts/pg-cluster.sh), so stopping it disturbs no other test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult, ConversationData } from '../../lib/chat/page';
import { ownPostgres, queryRows, type OwnPostgres } from '../support/postgres';
import { action, startChat, startCluster, textOf, type Cluster, type FeedItem } from './support/instances';

/** Short, so that the lease sweep comes soon: heartbeats every 300 ms. */
const LEASE_MS = 1_500;

const isType = (type: string) => (item: FeedItem) => item.data.type === type;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('PostgreSQL stopped mid-run and started again', () => {
  let postgres: OwnPostgres;
  let cluster: Cluster;
  const a = () => cluster.instances[0]!;

  beforeAll(async () => {
    postgres = ownPostgres();
    cluster = await startCluster({ count: 1, leaseMs: LEASE_MS, postgres: postgres.url });
  });
  afterAll(async () => {
    await cluster?.stop();
    postgres?.remove();
  });

  it('ends the stream with an error, marks the run interrupted once the database is back, and chats on', async () => {
    const words = Array.from({ length: 2000 }, (_, i) => `w${i} `).join('');
    cluster.model.setScenario({ replies: [{ content: words, chunkSize: 4, delayMs: 25 }] });
    const { sse, ids } = await startChat(a(), { message: 'A long story, please', tools: [] });
    const seen: FeedItem[] = [];
    await sse.readUntil((i) => textOf(seen.concat(i)).length > 60, seen);

    postgres.pause();
    // The stream ends (it does not hang), and its last word is an error the page shows.
    const end = await sse.readUntil(isType('run-end'), seen);
    expect(end?.data).toMatchObject({ type: 'run-end', reason: 'error', error: { name: 'StoreError' } });
    expect(await sse.next()).toBeUndefined();

    postgres.resume();
    // Once the database answers again the run is no longer `running`: cut off, it reads interrupted.
    const status = await until('the run to be marked', async () => {
      const [row] = await queryRows<{ status: string }>(cluster.db.url, 'SELECT status FROM runs WHERE id = $1', [
        ids.runId,
      ]);
      return row && row.status !== 'running' ? row.status : undefined;
    });
    expect(status).toBe('interrupted');

    // A new chat works on the same instance, without a restart.
    cluster.model.setScenario({ replies: [{ content: 'Back again.' }] });
    const next = await until('a chat to start', () => startChat(a(), { message: 'Are you there?', tools: [] }));
    const rest = await next.sse.rest();
    expect(rest.find(isType('run-end'))?.data).toMatchObject({ reason: 'answered' });
    expect(textOf(rest)).toBe('Back again.');

    // And the interrupted run shows what it kept.
    const opened = await action<ActionResult<ConversationData>>(a(), 'loadConversation', [ids.conversationId]);
    if (!opened.ok) throw new Error(opened.error);
    const turn = opened.value.turns.at(-1)!;
    expect(turn.runStatus).toBe('interrupted');
    const stored = turn.events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
    expect(stored.length).toBeGreaterThan(0);
    expect(words.startsWith(stored)).toBe(true);
  });
});
