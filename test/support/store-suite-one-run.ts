// The store suite's part for "a conversation answers one message at a time" (called from describeChatStore in
// store-suite.ts, so it runs against every store): the store refuses a run of a conversation that has one running,
// in the transaction that would start it, so two instances on one database cannot both start one; and a new message
// is stored with its run or not at all. Before, the rule was each process's own (two instances each read "nothing
// running", then both started a run), and a message was stored in one transaction and its run started in another:
// a failure between them left the message unanswered, and sending it again stored it twice.
import { describe, expect, it } from 'vitest';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';

const OWNER = ownerScope('owner-a');
const BUSY = { name: 'ConversationBusyError', code: 'conversation-busy', status: 409 };
const ROUNDS = 50;

/** What the conversation holds: each turn's message with how many runs it had. */
async function turnsOf(store: ChatStore, conversationId: string) {
  return (await store.listTurns(OWNER, conversationId)).map((r) => [r.turn.content, r.runCount]);
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'started' as const,
    (e: unknown) => e,
  );

export function describeOneRunAtATime(open: () => Promise<ChatStore>, reopen: () => Promise<ChatStore>): void {
  describe('one run at a time per conversation', () => {
    it('refuses a run while another of the conversation runs, storing and dropping nothing', async () => {
      const store = await open();
      const { id } = await store.createConversation(OWNER);
      const first = await store.addTurnWithRun(OWNER, id, 'q0', 'r0');
      await store.finishRun(OWNER, 'r0', 'answered');
      await store.addTurnWithRun(OWNER, id, 'q1', 'going');
      const before = await turnsOf(store, id);
      expect(before).toEqual([
        ['q0', 1],
        ['q1', 1],
      ]);

      // A new message, an edit of the first (which would drop both turns), a regenerate (which would drop the
      // second), another run of the running turn: each refused, nothing kept and nothing dropped.
      // A message sent with new settings changes none of them.
      const settings = { systemMessage: 'Answer in verse.', pauseBeforeTools: true };
      await expect(store.addTurnWithRun(OWNER, id, 'q2', 'send', { settings })).rejects.toMatchObject(BUSY);
      await expect(store.addTurnWithRun(OWNER, id, 'q0 again', 'edit', { replacing: 0 })).rejects.toMatchObject(BUSY);
      await expect(store.startRun(OWNER, first.turn.id, 'regen', { dropLater: true })).rejects.toMatchObject(BUSY);
      await expect(store.startRun(OWNER, first.turn.id, 'plain')).rejects.toMatchObject(BUSY);
      expect(await turnsOf(store, id)).toEqual(before);
      for (const runId of ['send', 'edit', 'regen', 'plain']) expect(await store.getRun(OWNER, runId)).toBeUndefined();
      expect(await store.listConversations(OWNER, 'q2')).toEqual([]);
      expect((await store.getConversation(OWNER, id))!.settings).toMatchObject({
        systemMessage: '',
        pauseBeforeTools: false,
      });

      // Another conversation is not held up; once the run has ended, the conversation takes the next one.
      const other = await store.createConversation(OWNER);
      await store.addTurnWithRun(OWNER, other.id, 'elsewhere', 'other');
      await store.finishRun(OWNER, 'going', 'aborted');
      const next = await store.addTurnWithRun(OWNER, id, 'q2', 'send', { settings });
      expect(next.turn).toMatchObject({ seq: 2, content: 'q2' });
      expect((await store.getConversation(OWNER, id))!.settings).toMatchObject(settings);
      expect(next.run).toMatchObject({ id: 'send', turnId: next.turn.id, status: 'running' });
    });

    it('stores a new message with its run, all or none, and drops what it replaces in the same transaction', async () => {
      const store = await open();
      const { id } = await store.createConversation(OWNER);
      const { turn, run } = await store.addTurnWithRun(OWNER, id, 'Where do puffins nest?', 'r0');
      expect(turn).toMatchObject({ conversationId: id, seq: 0, content: 'Where do puffins nest?' });
      expect(await store.getRun(OWNER, 'r0')).toEqual(run);
      expect((await store.listConversations(OWNER, 'puffins')).map((c) => c.id)).toEqual([id]);
      await store.finishRun(OWNER, 'r0', 'answered');
      await store.addTurnWithRun(OWNER, id, 'And gannets?', 'r1');
      await store.finishRun(OWNER, 'r1', 'answered');

      // The run cannot be stored (its id is taken: a fault after the message went in): the message is not kept,
      // and the turns it would have replaced are still there.
      const before = await turnsOf(store, id);
      await expect(store.addTurnWithRun(OWNER, id, 'And terns?', 'r0')).rejects.toThrow(/r0.*already exists/);
      await expect(store.addTurnWithRun(OWNER, id, 'Terns?', 'r0', { replacing: 1 })).rejects.toThrow(/r0/);
      await expect(store.startRun(OWNER, turn.id, 'r0', { dropLater: true })).rejects.toThrow(/r0/);
      expect(await turnsOf(store, id)).toEqual(before);
      expect(await store.listConversations(OWNER, 'terns')).toEqual([]);

      // An edit replaces the turn and the later ones with the new message and its run, numbering on.
      const edited = await store.addTurnWithRun(OWNER, id, 'And terns?', 'r2', { replacing: 1 });
      expect(edited.turn.seq).toBe(1);
      expect(await turnsOf(store, id)).toEqual([
        ['Where do puffins nest?', 1],
        ['And terns?', 1],
      ]);
      expect(await store.listConversations(OWNER, 'gannets')).toEqual([]);
      // A regenerate of the first drops the later turn with it.
      await store.finishRun(OWNER, 'r2', 'answered');
      await store.startRun(OWNER, turn.id, 'r3', { dropLater: true });
      expect(await turnsOf(store, id)).toEqual([['Where do puffins nest?', 2]]);
    });

    it(`two instances starting runs of one conversation at once: one starts, the other is refused (${ROUNDS} rounds)`, async () => {
      const a = await open();
      const b = await reopen();
      const { id } = await a.createConversation(OWNER);
      const first = await a.addTurnWithRun(OWNER, id, 'first', 'first');
      await a.finishRun(OWNER, 'first', 'answered');
      let turns = 1;
      for (let round = 0; round < ROUNDS; round++) {
        // Even rounds: two messages; odd rounds: a message and a regenerate of the first turn (which drops the rest).
        const regenerate = round % 2 === 1;
        const results = await Promise.all([
          outcome(a.addTurnWithRun(OWNER, id, `a${round}`, `a${round}`)),
          outcome(
            regenerate
              ? b.startRun(OWNER, first.turn.id, `b${round}`, { dropLater: true })
              : b.addTurnWithRun(OWNER, id, `b${round}`, `b${round}`),
          ),
        ]);
        const won = results.findIndex((r) => r === 'started');
        expect(
          results.filter((r) => r === 'started'),
          `round ${round}`,
        ).toHaveLength(1);
        expect(results[1 - won]).toMatchObject(BUSY);
        const winner = won === 0 ? `a${round}` : `b${round}`;
        expect((await b.getRun(OWNER, winner))?.status).toBe('running');
        await (won === 0 ? a : b).finishRun(OWNER, winner, 'answered');
        turns = won === 1 && regenerate ? 1 : turns + 1;
        // No message is left without its run, and the loser's is not there.
        const now = await turnsOf(a, id);
        expect(now, `round ${round}`).toHaveLength(turns);
        expect(now.every(([, runs]) => Number(runs) > 0)).toBe(true);
        expect(now.map(([content]) => content)).not.toContain(won === 0 ? `b${round}` : `a${round}`);
      }
    });
  });
}
