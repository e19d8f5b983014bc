import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { openSqliteStore } from '../store';
import type { ChatStore } from '../store/types';
import { coalesceDeltas, InMemoryLiveRuns } from './live-runs';
import { ownerScope, type OwnerScope } from '../store/owner';

const OWNER = ownerScope('owner-a');

const text = (t: number, s: string, part?: 'thought' | 'markup'): AgentEvent =>
  ({ type: 'text-delta', runId: 'r', iteration: 1, t, text: s, ...(part ? { part } : {}) }) as AgentEvent;
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

/** A real SQLite store holding run 'r', which notes the size of each batch of events it is given and writes it a
 *  moment later. */
async function storeWithRun(): Promise<{ store: ChatStore; batches: number[] }> {
  const real = await openSqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'live-runs-')), 'chat.db'));
  await real.addTurnWithRun(OWNER, (await real.createConversation(OWNER)).id, 'q', 'r');
  const batches: number[] = [];
  const store = Object.create(real, {
    appendEvents: {
      // Answers a little later, as a store across the network does.
      value: async (owner: OwnerScope, runId: string, events: readonly AgentEvent[]) => {
        batches.push(events.length);
        await new Promise((resolve) => setTimeout(resolve, 2));
        return real.appendEvents(owner, runId, events);
      },
    },
  }) as ChatStore;
  return { store, batches };
}

async function read(events: AsyncGenerator<AgentEvent>): Promise<string[]> {
  const out: string[] = [];
  for await (const e of events) out.push(e.type === 'text-delta' ? e.text : e.type);
  return out;
}

describe('coalesceDeltas', () => {
  it('merges consecutive deltas of one iteration, keeping the later clock, but never two parts of a ReAct step', () => {
    expect(coalesceDeltas([text(1, 'a'), text(2, 'b'), text(3, 'c')])).toEqual([text(3, 'abc')]);
    expect(
      coalesceDeltas([text(1, 'Thought: ', 'markup'), text(2, 'I', 'thought'), text(3, ' see', 'thought')]),
    ).toEqual([text(1, 'Thought: ', 'markup'), text(3, 'I see', 'thought')]);
  });

  it('never merges a delta that starts a message of its own (a writing step heading) into the one before', () => {
    const heading = { ...text(2, '>\n# '), newMessage: true as const };
    expect(coalesceDeltas([text(1, 'outline'), heading, text(3, 'section')])).toEqual([
      text(1, 'outline'),
      { ...heading, text: '>\n# section', t: 3 },
    ]);
  });
});

describe('InMemoryLiveRuns', () => {
  it('writes a run to its log in order, after the turn that pushed (a batch a turn), and shares each event once stored', async () => {
    const { store, batches } = await storeWithRun();
    const runs = new InMemoryLiveRuns(store);
    const writer = runs.start(OWNER, 'r', 'c');
    const early = read((await runs.follow(OWNER, 'r'))!);
    const seen: number[] = [];
    const watching = (async () => {
      // Whatever a follower holds is in the log already.
      for await (const _ of (await runs.follow(OWNER, 'r'))!) seen.push((await store.getRunEvents(OWNER, 'r')).length);
    })();
    writer.push(text(1, 'a'));
    writer.push(text(1, 'b'));
    // Nothing is written inside the push: a model request being prepared in this turn leaves first.
    expect(batches).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    for (const t of ['c', 'd']) writer.push(text(1, t));
    writer.push(runEnd);
    await writer.end();
    expect(batches).toEqual([2, 3]); // what one turn pushed goes together
    expect(await early).toEqual(['a', 'b', 'c', 'd', 'run-end']);
    await watching;
    expect(seen.every((n, i) => n >= i + 1)).toBe(true);
    expect((await store.getRun(OWNER, 'r'))?.status).toBe('answered');
    expect(await runs.follow(OWNER, 'r')).toBeUndefined(); // over: its log holds it
  });

  it('lets readers follow a run from its first event, and stops it', async () => {
    const runs = new InMemoryLiveRuns((await storeWithRun()).store);
    const writer = runs.start(OWNER, 'r', 'c');
    writer.push(text(1, 'a'));
    const early = (await runs.follow(OWNER, 'r'))!;
    writer.push(text(2, 'b'));
    const late = (await runs.follow(OWNER, 'r'))!; // joins later, still from the first event
    expect(await runs.stop(OWNER, 'r')).toBe(true);
    expect(writer.signal.aborted).toBe(true);
    await writer.end();
    expect(await read(early)).toEqual(['a', 'b']);
    expect(await read(late)).toEqual(['a', 'b']);
    expect(await runs.stop(OWNER, 'r')).toBe(false);
    expect(await runs.decide(OWNER, 'r', '1', { action: 'skip' })).toBe('not-running');
  });

  it('sends a merging follower the first event at once, and merges what comes after it', async () => {
    const { store } = await storeWithRun();
    const runs = new InMemoryLiveRuns(store);
    const writer = runs.start(OWNER, 'r', 'c');
    const follower = (await runs.follow(OWNER, 'r', { coalesceMs: 60_000 }))!;
    writer.push(text(1, 'first'));
    // Merging used to wait its interval before every send, the first token's too.
    const first = await Promise.race([
      follower.next(),
      new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 2_000)),
    ]);
    expect(first).toMatchObject({ value: { type: 'text-delta', text: 'first' } });
    writer.push(text(2, 'a'));
    writer.push(text(3, 'b'));
    writer.push(runEnd);
    await writer.end();
    expect(await read(follower)).toEqual(['ab', 'run-end']);
  });

  it('on shutdown, stores what was pushed, marks the run interrupted, stops it, and drops what it pushes after', async () => {
    const { store } = await storeWithRun();
    const runs = new InMemoryLiveRuns(store);
    const writer = runs.start(OWNER, 'r', 'c');
    const follower = (await runs.follow(OWNER, 'r'))!;
    writer.push(text(1, 'a'));
    writer.push(text(2, 'b'));
    // The driver, as the chat service's: once stopped, the loop's last event, then the end.
    writer.signal.addEventListener('abort', () => {
      writer.push({ ...runEnd, reason: 'aborted' });
      void writer.end();
    });
    expect(await runs.interruptAll()).toBe(1);
    expect(writer.signal.aborted).toBe(true);
    expect(await read(follower)).toEqual(['a', 'b']);
    expect((await store.getRun(OWNER, 'r'))?.status).toBe('interrupted');
    expect((await store.getRunEvents(OWNER, 'r')).map((e) => e.type)).toEqual(['text-delta', 'text-delta']);
    expect(await runs.interruptAll()).toBe(0);
  });

  it('tells the followers when the log cannot be written, and writes nothing after', async () => {
    const { store } = await storeWithRun();
    const runs = new InMemoryLiveRuns(store);
    const writer = runs.start(OWNER, 'no-such-run', 'c');
    const reading = (async () => {
      const out: AgentEvent[] = [];
      for await (const e of (await runs.follow(OWNER, 'no-such-run'))!) out.push(e);
      return out;
    })();
    writer.push(text(1, 'a'));
    writer.push(text(2, 'b'));
    // The log is written in a later turn of the event loop: wait for that write to fail (not a fixed sleep, which a
    // loaded machine outlasts).
    await vi.waitFor(() => expect(writer.failed).toBe(true), { timeout: 5_000, interval: 5 });
    writer.push(text(3, 'c'));
    await writer.end();
    expect(await reading).toMatchObject([
      {
        type: 'run-end',
        reason: 'error',
        error: { name: 'StoreError', message: expect.stringMatching(/no-such-run/) },
      },
    ]);
  });

  it('hands a decision to the paused call, and says when no call waits', async () => {
    const runs = new InMemoryLiveRuns((await storeWithRun()).store);
    const writer = runs.start(OWNER, 'r', 'c');
    expect(await runs.decide(OWNER, 'r', 'f1', { action: 'skip' })).toBe('not-waiting');
    const decision = writer.awaitDecision('f1');
    expect(await runs.decide(OWNER, 'r', 'f1', { action: 'supply', content: 'x' })).toBe('decided');
    expect(await decision).toEqual({ action: 'supply', content: 'x' });
    const waiting = writer.awaitDecision('f2');
    await runs.stopConversation(OWNER, 'other'); // another conversation's: nothing happens
    expect(await runs.decide(OWNER, 'r', 'f2', { action: 'skip' })).toBe('decided');
    await waiting;
    const stopped = writer.awaitDecision('f3');
    const ending = runs.stopConversation(OWNER, 'c');
    await expect(stopped).rejects.toBeDefined();
    await writer.end();
    await ending;
  });
});
