// Two instances of the built app (`next start` on two loopback ports) on one real PostgreSQL database and one
// DATA_DIR: a run started on A is followed, stopped and approved from B; a file uploaded to A goes with a message
// sent to B; when A is killed (SIGKILL) mid-run, B marks its run interrupted within the lease's bound and everything
// A had streamed is kept; an instance sent SIGTERM marks its own runs interrupted as it stops, long before their
// lease would run out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult, ConversationData } from '../../lib/chat/page';
import { postgresMissing } from '../support/postgres';
import { request } from '../security/support/app';
import { action, followRun, startChat, startCluster, textOf, type Cluster, type FeedItem } from './support/instances';

const missing = postgresMissing();
/** Short, so the kill test is quick: heartbeats every 300 ms, a dead instance's runs marked within 1.8 s. */
const LEASE_MS = 1_500;

const isType = (type: string) => (item: FeedItem) => item.data.type === type;

if (missing) {
  describe('two instances on one database', () => it.skip(`skipped: ${missing}`, () => undefined));
} else {
  describe('two instances on one PostgreSQL database and one DATA_DIR', () => {
    let cluster: Cluster;
    const a = () => cluster.instances[0]!;
    const b = () => cluster.instances[1]!;

    beforeAll(async () => {
      cluster = await startCluster({ count: 2, leaseMs: LEASE_MS });
    });
    afterAll(async () => {
      await cluster?.stop();
    });

    /** A long answer, streamed slowly enough to act on it meanwhile. */
    const longAnswer = (words: number) => ({
      content: Array.from({ length: words }, (_, i) => `w${i} `).join(''),
      chunkSize: 4,
      delayMs: 25,
    });

    it('follows from B, from its first event, a run started on A, and stops it from B', async () => {
      cluster.model.setScenario({ replies: [longAnswer(200)] });
      const { sse: onA, ids } = await startChat(a(), { message: 'Tell me a long story', tools: [] });
      const seenOnA: FeedItem[] = [];
      await onA.readUntil((i) => textOf([i]).length > 0, seenOnA); // A is streaming

      const onB = await followRun(b(), ids.runId);
      expect(onB.status).toBe(200);
      const seenOnB: FeedItem[] = [];
      await onB.readUntil((i) => textOf(seenOnB.concat(i)).length > 40, seenOnB);
      expect(seenOnB[0]?.data.type).toBe('run-start'); // from the first event, not from when B joined

      expect(await action<boolean>(b(), 'stopRun', [ids.runId])).toBe(true);
      const endOnA = await onA.readUntil(isType('run-end'), seenOnA);
      const endOnB = await onB.readUntil(isType('run-end'), seenOnB);
      expect(endOnA?.data).toMatchObject({ type: 'run-end', reason: 'aborted' });
      expect(endOnB?.data).toMatchObject({ type: 'run-end', reason: 'aborted' });
      expect(await onA.next()).toBeUndefined();
      expect(await onB.next()).toBeUndefined();
      // The same run, seen whole from both instances.
      expect(textOf(seenOnB)).toBe(textOf(seenOnA));
      expect(textOf(seenOnA).length).toBeLessThan(longAnswer(200).content.length);
      // Stopped means over, on either instance.
      expect(await action<boolean>(a(), 'stopRun', [ids.runId])).toBe(false);
      expect(await action<boolean>(b(), 'stopRun', [ids.runId])).toBe(false);
    });

    it('pauses a run on A before its tool call, and B approves it: A runs the tool and answers', async () => {
      cluster.model.setScenario({ replies: [{ content: 'Hello.' }] });
      const first = await startChat(a(), { message: 'Hi', tools: ['calculator'] });
      await first.sse.rest();
      const conversationId = first.ids.conversationId;
      const saved = await action<ActionResult<unknown>>(a(), 'saveSettings', [
        conversationId,
        { pauseBeforeTools: true },
      ]);
      expect(saved.ok).toBe(true);

      cluster.model.setScenario({
        replies: [
          { toolCalls: [{ id: 'call-1', name: 'calculator', arguments: '{"expression": "6*7"}' }] },
          { content: 'It is 42.' },
        ],
      });
      const { sse: onA, ids } = await startChat(a(), { conversationId, message: 'What is 6 times 7?' });
      const seenOnA: FeedItem[] = [];
      const approval = await onA.readUntil(isType('tool-approval'), seenOnA);
      expect(approval?.data).toMatchObject({ functionId: 'call-1', name: 'calculator' });

      const onB = await followRun(b(), ids.runId);
      const seenOnB: FeedItem[] = [];
      expect(await onB.readUntil(isType('tool-approval'), seenOnB)).toBeDefined();
      // Nothing runs until a decision comes: the model was asked once for this run.
      const asked = cluster.model.requests.length;

      const wrong = await action<ActionResult<null>>(b(), 'decideTool', [ids.runId, 'call-9', { action: 'run' }]);
      expect(wrong).toMatchObject({ ok: false, error: 'This run is not waiting for tool call call-9.' });
      const decided = await action<ActionResult<null>>(b(), 'decideTool', [ids.runId, 'call-1', { action: 'run' }]);
      expect(decided).toEqual({ ok: true, value: null });

      const end = await onA.readUntil(isType('run-end'), seenOnA);
      expect(end?.data).toMatchObject({ reason: 'answered' });
      expect(seenOnA.find(isType('tool-decision'))?.data).toMatchObject({
        functionId: 'call-1',
        decision: { action: 'run' },
      });
      expect(seenOnA.find(isType('tool-result'))?.data).toMatchObject({ functionId: 'call-1', content: '42' });
      expect(textOf(seenOnA)).toBe('It is 42.');
      expect(cluster.model.requests.length).toBe(asked + 1);
      await onB.rest(seenOnB);
      expect(seenOnB.map((i) => i.data.type)).toEqual(seenOnA.map((i) => i.data.type));
    });

    it('uploads a file to A and sends a message to B at once: the message carries it, parsed by either', async () => {
      const up = await request(a().url, '/api/files?name=tides.txt', {
        method: 'POST',
        headers: { origin: a().url, 'content-type': 'application/octet-stream' },
        body: 'High water at Brest: 06:12 and 18:40.\n\nLow water: 00:05 and 12:27.',
      });
      expect(up.status).toBe(201);
      const { document, conversationId } = up.json<{
        document: { id: string; name: string };
        conversationId: string;
      }>();
      cluster.model.setScenario({ replies: [{ content: 'Noted.' }] });
      cluster.model.reset();
      const { sse } = await startChat(b(), { conversationId, message: 'When is high water?' });
      expect((await sse.rest()).some(isType('run-end'))).toBe(true);
      const sent = JSON.stringify(cluster.model.requests.at(-1)?.body);
      expect(sent).toContain('tides.txt');
      const onB = await request(b().url, `/api/files/${document.id}`);
      expect(onB.json<{ document: { state: string } }>().document.state).toBe('ready');
    });

    it("marks the runs of a killed instance interrupted from the other one within the lease's bound, keeping what it streamed", async () => {
      cluster.model.setScenario({ replies: [longAnswer(400)] });
      const { sse: onA, ids } = await startChat(a(), { message: 'Another long story', tools: [] });
      const seenOnA: FeedItem[] = [];
      await onA.readUntil((i) => textOf(seenOnA.concat(i)).length > 60, seenOnA);
      const onB = await followRun(b(), ids.runId);
      const seenOnB: FeedItem[] = [];
      await onB.readUntil((i) => textOf(seenOnB.concat(i)).length > 60, seenOnB);

      await a().kill();
      const killedAt = Date.now();
      await onA.rest(seenOnA).catch(() => seenOnA); // the connection drops with A
      await onB.rest(seenOnB); // B's feed ends once B marks the run interrupted
      const tookMs = Date.now() - killedAt;
      // The bound: the lease plus one heartbeat (1.8 s here), and a second of slack for a busy machine.
      expect(tookMs).toBeLessThan(LEASE_MS + LEASE_MS / 5 + 1_000);
      expect(seenOnB.some(isType('run-end'))).toBe(false); // it did not end: it was cut off

      const opened = await action<ActionResult<ConversationData>>(b(), 'loadConversation', [ids.conversationId]);
      if (!opened.ok) throw new Error(opened.error);
      const turn = opened.value.turns.at(-1)!;
      expect(turn.runStatus).toBe('interrupted');
      const stored = turn.events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
      // Everything A's client and B's follower were shown is in the log.
      expect(stored.startsWith(textOf(seenOnA))).toBe(true);
      expect(stored.startsWith(textOf(seenOnB))).toBe(true);
      expect(stored.length).toBeGreaterThanOrEqual(Math.max(textOf(seenOnA).length, textOf(seenOnB).length));
    });

    it('marks its own runs interrupted when sent SIGTERM, before their lease runs out, keeping what it streamed', async () => {
      // C's leases last ten minutes: within this test only C's own shutdown can end its run, not B's sweep.
      const c = await cluster.add({ leaseMs: 600_000 });
      cluster.model.setScenario({ replies: [longAnswer(2000)] });
      const { sse: onC, ids } = await startChat(c, { message: 'A story for the night shift', tools: [] });
      const seenOnC: FeedItem[] = [];
      await onC.readUntil((i) => textOf(seenOnC.concat(i)).length > 60, seenOnC);
      const onB = await followRun(b(), ids.runId);
      const seenOnB: FeedItem[] = [];
      await onB.readUntil((i) => textOf(seenOnB.concat(i)).length > 60, seenOnB);

      const exit = c.terminate();
      await onC.rest(seenOnC).catch(() => seenOnC);
      await onB.rest(seenOnB); // B's feed ends once C has marked the run
      expect(await exit).toBe(143); // next start's exit after SIGTERM: it went through the app's shutdown
      expect(seenOnB.some(isType('run-end'))).toBe(false); // cut off, not finished

      const opened = await action<ActionResult<ConversationData>>(b(), 'loadConversation', [ids.conversationId]);
      if (!opened.ok) throw new Error(opened.error);
      const turn = opened.value.turns.at(-1)!;
      expect(turn.runStatus).toBe('interrupted');
      const stored = turn.events.map((e) => (e.type === 'text-delta' ? e.text : '')).join('');
      expect(stored.startsWith(textOf(seenOnC))).toBe(true);
      expect(stored.startsWith(textOf(seenOnB))).toBe(true);
      expect(c.output()).toContain('[shutdown] SIGTERM: 1 run(s) marked interrupted');
    });
  });
}
