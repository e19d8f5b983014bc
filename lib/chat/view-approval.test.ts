import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import { foldRun, markInterrupted, type ToolBlock } from './view';

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

const decided = ev({
  type: 'tool-decision',
  functionId: 'c1',
  name: 'calculator',
  decision: { action: 'run', arguments: '{"expression":"2+3"}' },
});
/** The run as the page reads it once its server stopped mid-run. */
function serverStopped(events: AgentEvent[]) {
  const view = foldRun('r', events);
  markInterrupted(view);
  return view.blocks[0];
}

describe('run view fold: pause before tools', () => {
  it('shows a paused call as awaiting approval, running once decided, then as it ran with the edited arguments', () => {
    expect((foldRun('r', [start, call, approval]).blocks[0] as ToolBlock).status).toBe('awaiting');
    expect(foldRun('r', [start, call, approval, decided]).blocks[0]).toMatchObject({
      status: 'running',
      decision: { action: 'run' },
    });
    const done = foldRun('r', [
      start,
      call,
      approval,
      decided,
      ev({
        type: 'tool-result',
        functionId: 'c1',
        name: 'calculator',
        arguments: '{"expression":"2+3"}',
        ok: true,
        content: '5',
        durationMs: 1,
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

  it('a call approved and running when its server stopped was interrupted; one still waiting was not run', () => {
    expect(serverStopped([start, call, approval, decided])).toMatchObject({
      status: 'interrupted',
      error: { message: 'The server stopped while this call was running; it has no result.' },
    });
    expect(serverStopped([start, call, approval])).toMatchObject({
      error: { message: 'The run ended before this call started; it was not run.' },
    });
  });
});
