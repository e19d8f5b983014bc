import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { foldRun, type ToolBlock } from './view';

let t = 0;
const ev = (e: Record<string, unknown>): AgentEvent => ({ runId: 'r', iteration: 1, t: (t += 10), ...e }) as AgentEvent;
const start = ev({
  type: 'run-start',
  iteration: 0,
  agent: 'a',
  kind: 'fncall',
  model: 'm',
  lang: 'en',
  maxLlmCalls: 20,
  tools: [],
});
const call = ev({ type: 'tool-call', functionId: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' });
const approval = ev({ type: 'tool-approval', functionId: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' });

describe('run view fold: pause before tools', () => {
  it('shows a paused call as awaiting approval, then as it ran with the edited arguments', () => {
    expect((foldRun('r', [start, call, approval]).blocks[0] as ToolBlock).status).toBe('awaiting');
    const done = foldRun('r', [
      start,
      call,
      approval,
      ev({
        type: 'tool-result',
        functionId: 'c1',
        name: 'calculator',
        arguments: '{"expression":"2+3"}',
        ok: true,
        content: '5',
        durationMs: 1,
        decision: { action: 'run', arguments: '{"expression":"2+3"}' },
      }),
    ]).blocks[0] as ToolBlock;
    expect(done).toMatchObject({
      status: 'done',
      result: '5',
      arguments: '{"expression":"2+3"}',
      decision: { action: 'run' },
    });
  });

  it('a run stopped while paused leaves the call not run', () => {
    const view = foldRun('r', [
      start,
      call,
      approval,
      ev({
        type: 'run-end',
        iteration: 0,
        reason: 'aborted',
        llmCalls: 1,
        toolCalls: 0,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 1,
      }),
    ]);
    expect(view.blocks[0]).toMatchObject({
      status: 'error',
      error: { message: 'The run ended before this call started; it was not run.' },
    });
  });
});
