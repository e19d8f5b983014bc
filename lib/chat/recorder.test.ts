import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { openSqliteStore } from '../store/sqlite';
import type { ChatStore } from '../store/types';
import { RunRecorder } from './recorder';

const delta = (text: string): AgentEvent => ({ type: 'text-delta', runId: 'r', iteration: 1, t: 0, text });

/** A real SQLite store that also notes the size of each batch it is given. */
async function countingStore(): Promise<{ store: ChatStore; batches: number[] }> {
  const real = openSqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-')), 'chat.db'));
  const turn = await real.addTurn((await real.createConversation()).id, 'q');
  await real.startRun(turn.id, 'r');
  const batches: number[] = [];
  const store = Object.create(real, {
    appendEvents: {
      value: (runId: string, events: readonly AgentEvent[]) => {
        batches.push(events.length);
        return real.appendEvents(runId, events);
      },
    },
  }) as ChatStore;
  return { store, batches };
}

describe('RunRecorder', () => {
  it('writes in order, batches what arrives during a write, and hands each event on only once it is stored', async () => {
    const { store, batches } = await countingStore();
    const handed: string[] = [];
    const stored: number[] = [];
    const recorder = new RunRecorder(store, 'r', (e) => {
      handed.push(e.type === 'text-delta' ? e.text : e.type);
      void store.getRunEvents('r').then((all) => stored.push(all.length));
    });
    for (const t of ['a', 'b', 'c', 'd']) recorder.add(delta(t));
    recorder.add({
      type: 'run-end',
      runId: 'r',
      iteration: 0,
      t: 1,
      reason: 'answered',
      llmCalls: 1,
      toolCalls: 0,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 1,
    });
    await recorder.flushed();
    expect(batches).toEqual([1, 4]); // the first event goes at once, the rest together
    expect(handed).toEqual(['a', 'b', 'c', 'd', 'run-end']);
    expect((await store.getRunEvents('r')).map((e) => e.type)).toEqual([...Array(4).fill('text-delta'), 'run-end']);
    expect((await store.getRun('r'))?.status).toBe('answered'); // finished before run-end was handed on
    expect(Math.min(...stored)).toBeGreaterThanOrEqual(1);
  });

  it('reports a store that fails, and writes nothing after it', async () => {
    const { store } = await countingStore();
    const recorder = new RunRecorder(store, 'no-such-run', () => {});
    recorder.add(delta('a'));
    recorder.add(delta('b'));
    await expect(recorder.flushed()).rejects.toThrow(/Unknown run id "no-such-run"/);
    expect(recorder.failed).toBeInstanceOf(Error);
    recorder.add(delta('c'));
    await expect(recorder.flushed()).rejects.toThrow(/no-such-run/);
  });
});
