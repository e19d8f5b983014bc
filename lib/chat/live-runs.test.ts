import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { coalesceDeltas, InMemoryLiveRuns } from './live-runs';

const text = (t: number, s: string, part?: 'thought' | 'markup'): AgentEvent =>
  ({ type: 'text-delta', runId: 'r', iteration: 1, t, text: s, ...(part ? { part } : {}) }) as AgentEvent;

describe('coalesceDeltas', () => {
  it('merges consecutive deltas of one iteration, keeping the later clock, but never two parts of a ReAct step', () => {
    expect(coalesceDeltas([text(1, 'a'), text(2, 'b'), text(3, 'c')])).toEqual([text(3, 'abc')]);
    expect(
      coalesceDeltas([text(1, 'Thought: ', 'markup'), text(2, 'I', 'thought'), text(3, ' see', 'thought')]),
    ).toEqual([text(1, 'Thought: ', 'markup'), text(3, 'I see', 'thought')]);
  });
});

describe('InMemoryLiveRuns', () => {
  it('lets readers follow a run from its first event, stops it, and forgets it once it has ended', async () => {
    const runs = new InMemoryLiveRuns();
    const writer = runs.start('r', 'c');
    writer.push(text(1, 'a'));
    const early = runs.follow('r')!;
    writer.push(text(2, 'b'));
    const late = runs.follow('r')!; // joins later, still from the first event
    expect(runs.stop('r')).toBe(true);
    expect(writer.signal.aborted).toBe(true);
    writer.end();
    const read = async (g: AsyncGenerator<AgentEvent>) => {
      const out: string[] = [];
      for await (const e of g) out.push(e.type === 'text-delta' ? e.text : e.type);
      return out;
    };
    expect(await read(early)).toEqual(['a', 'b']);
    expect(await read(late)).toEqual(['a', 'b']);
    expect(runs.follow('r')).toBeUndefined();
    expect(runs.stop('r')).toBe(false);
    expect(runs.decide('r', '1', { action: 'skip' })).toBe('not-running');
  });

  it('hands a decision to the paused call, and says when no call waits', async () => {
    const runs = new InMemoryLiveRuns();
    const writer = runs.start('r', 'c');
    expect(runs.decide('r', 'f1', { action: 'skip' })).toBe('not-waiting');
    const decision = writer.awaitDecision('f1');
    expect(runs.decide('r', 'f1', { action: 'supply', content: 'x' })).toBe('decided');
    expect(await decision).toEqual({ action: 'supply', content: 'x' });
    const stopped = writer.awaitDecision('f2');
    await runs.stopConversation('other'); // another conversation's: nothing happens
    expect(runs.decide('r', 'f2', { action: 'skip' })).toBe('decided');
    await stopped;
    const waiting = writer.awaitDecision('f3');
    const ending = runs.stopConversation('c');
    await expect(waiting).rejects.toBeDefined();
    writer.end();
    await ending;
  });
});
