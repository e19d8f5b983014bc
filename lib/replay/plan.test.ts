import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { planReplay } from './plan';

let t = 0;
const ev = (e: Record<string, unknown>) => ({ runId: 'orig', iteration: 1, t: (t += 1), ...e }) as AgentEvent;
const input = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'What is 6*7 and the time?' },
];
/** Iteration 1: two calls; iteration 2: one call that failed; iteration 3: the answer. */
const log: AgentEvent[] = [
  ev({
    type: 'run-start',
    iteration: 0,
    agent: 'assistant',
    kind: 'fncall',
    model: 'm',
    fncallMode: 'native',
    lang: 'en',
    maxLlmCalls: 20,
    tools: ['calculator', 'current_time'],
    input,
  }),
  ev({ type: 'llm-start', format: 'native' }),
  ev({ type: 'reasoning-delta', text: 'Two tools.' }),
  ev({ type: 'llm-end', finishReason: 'tool_calls', durationMs: 1 }),
  ev({ type: 'tool-call', functionId: 'a', name: 'calculator', arguments: '{"expression":"6*7"}' }),
  ev({ type: 'tool-call', functionId: 'b', name: 'current_time', arguments: '{}' }),
  ev({
    type: 'tool-result',
    functionId: 'a',
    name: 'calculator',
    arguments: '{"expression":"6*7"}',
    ok: true,
    content: '42',
    durationMs: 1,
  }),
  ev({
    type: 'tool-result',
    functionId: 'b',
    name: 'current_time',
    arguments: '{}',
    ok: true,
    content: 'noon',
    durationMs: 1,
  }),
  ev({ type: 'llm-start', iteration: 2, format: 'native' }),
  ev({ type: 'llm-end', iteration: 2, finishReason: 'tool_calls', durationMs: 1 }),
  ev({ type: 'tool-call', iteration: 2, functionId: 'a', name: 'calculator', arguments: '{' }),
  ev({
    type: 'tool-result',
    iteration: 2,
    functionId: 'a',
    name: 'calculator',
    arguments: '{',
    ok: false,
    content: 'Parameters must be formatted as a valid JSON!',
    durationMs: 1,
    error: { kind: 'invalid-arguments', message: 'bad', type: 'ToolArgumentsError' },
  }),
  ev({ type: 'llm-start', iteration: 3, format: 'native' }),
  ev({ type: 'text-delta', iteration: 3, text: '42 at noon.' }),
  ev({ type: 'llm-end', iteration: 3, finishReason: 'stop', durationMs: 1 }),
  ev({
    type: 'run-end',
    iteration: 0,
    reason: 'answered',
    llmCalls: 3,
    toolCalls: 3,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    durationMs: 9,
  }),
];

describe('planReplay', () => {
  it('from iteration 1 starts from the run input alone', () => {
    const plan = planReplay('orig', log, { fromIteration: 1 });
    expect(plan.messages).toEqual(input);
    expect(plan.events).toEqual([]);
    expect(plan.replay).toEqual({ of: 'orig', fromIteration: 1 });
    expect(plan.tools).toEqual(['calculator', 'current_time']);
  });

  it('rebuilds the messages at the start of iteration N with an edited tool result in place', () => {
    const plan = planReplay('orig', log, {
      fromIteration: 3,
      model: 'other',
      generateCfg: { temperature: 0.2 },
      toolResultEdits: [{ iteration: 2, functionId: 'a', content: '41' }],
    });
    expect(plan.messages.map((m) => [m.role, m.function_call?.name ?? m.content])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'What is 6*7 and the time?'],
      ['assistant', ''], // the reasoning message
      ['assistant', 'calculator'],
      ['assistant', 'current_time'],
      ['function', '42'],
      ['function', 'noon'],
      ['assistant', 'calculator'],
      ['function', '41'],
    ]);
    expect(plan.messages[2]!.reasoning_content).toBe('Two tools.');
    expect(plan.messages[8]!.extra).toEqual({ function_id: 'a' });
    // The copied events carry the edit: the failed call now reads as a plain result.
    const edited = plan.events.find((e) => e.type === 'tool-result' && e.iteration === 2)!;
    expect(edited).toMatchObject({ ok: true, content: '41' });
    expect(edited).not.toHaveProperty('error');
    expect(plan.events.every((e) => e.iteration >= 1 && e.iteration < 3)).toBe(true);
    expect(plan.replay).toEqual({
      of: 'orig',
      fromIteration: 3,
      model: 'other',
      generateCfg: { temperature: 0.2 },
      toolResultEdits: [{ iteration: 2, functionId: 'a', content: '41' }],
    });
    // The stored log is left as it was.
    expect(log.find((e) => e.type === 'tool-result' && e.iteration === 2)).toMatchObject({ ok: false });
  });

  it('says what is wrong with an impossible replay', () => {
    expect(() => planReplay('orig', log, { fromIteration: 4 })).toThrow('this run has iterations 1 to 3');
    expect(() => planReplay('orig', log, { fromIteration: 0 })).toThrow('iterations 1 to 3');
    expect(() =>
      planReplay('orig', log, { fromIteration: 2, toolResultEdits: [{ iteration: 2, functionId: 'a', content: 'x' }] }),
    ).toThrow('not before iteration 2');
    expect(() =>
      planReplay('orig', log, {
        fromIteration: 3,
        toolResultEdits: [{ iteration: 1, functionId: 'zz', content: 'x' }],
      }),
    ).toThrow('Iteration 1 has no tool result zz');
    const react = log.map((e) => (e.type === 'run-start' ? { ...e, kind: 'react' as const } : e));
    expect(() => planReplay('orig', react, { fromIteration: 1 })).toThrow('ReActChat runs cannot be replayed');
    expect(() => planReplay('orig', log.slice(1), { fromIteration: 1 })).toThrow('no recorded input');
  });
});
