import { describe, expect, it } from 'vitest';
import { parseAgentEvent, parseFeedEvent, type AgentEvent } from '../protocol/events';
import { feedEvent } from './feed';

const runStart = parseAgentEvent({
  type: 'run-start',
  runId: 'run-1',
  iteration: 0,
  t: 0.4,
  agent: 'Assistant',
  kind: 'assistant',
  model: 'qwen3',
  lang: 'en',
  maxLlmCalls: 20,
  tools: ['calculator'],
  input: [{ role: 'user', content: 'hi' }],
});

describe('the feed, checked by its own schema', () => {
  it('a run-start keeps who ran on what model and drops the run id and the inspector-only settings', () => {
    const shown = parseFeedEvent(JSON.parse(JSON.stringify(feedEvent(runStart))));
    expect(shown).toEqual({
      type: 'run-start',
      iteration: 0,
      t: 0,
      agent: 'Assistant',
      kind: 'assistant',
      model: 'qwen3',
    });
    // The full event's schema would refuse it: the feed has a schema of its own.
    expect(() => parseAgentEvent(shown)).toThrow();
  });

  it('other events come without their run id, a child keeps its own run id inside', () => {
    const delta: AgentEvent = { type: 'text-delta', runId: 'run-1', iteration: 1, t: 3.7, text: 'Hel' };
    expect(parseFeedEvent(feedEvent(delta))).toEqual({ type: 'text-delta', iteration: 1, t: 4, text: 'Hel' });
    const child = parseAgentEvent({ type: 'child', runId: 'run-1', iteration: 1, t: 5, agent: 'Bob', event: delta });
    expect(parseFeedEvent(feedEvent(child))).toMatchObject({ type: 'child', event: { runId: 'run-1', text: 'Hel' } });
  });

  it('refuses what is not an event of the feed', () => {
    expect(() =>
      parseFeedEvent({ type: 'run-start', iteration: 0, t: 0, agent: 'A', kind: 'nonsense', model: 'm' }),
    ).toThrow();
    expect(() => parseFeedEvent({ type: 'no-such-event', iteration: 0, t: 0 })).toThrow();
  });
});
