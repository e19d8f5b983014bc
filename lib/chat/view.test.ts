import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../protocol/events';
import type { AgentKind } from '../protocol/enums';
import { applyEvent, emptyRun, foldRun, markInterrupted, RUN_CHANGED, type ToolBlock } from './view';

let t = 0;
const ev = (e: Record<string, unknown>): AgentEvent => ({ runId: 'r', iteration: 1, t: (t += 10), ...e }) as AgentEvent;
const start = (kind: AgentKind = 'fncall') =>
  ev({ type: 'run-start', iteration: 0, agent: 'a', kind, model: 'm', lang: 'en', maxLlmCalls: 20, tools: [] });
/** A call that ran as the model wrote it and succeeded. */
const ran = (functionId: string, name: string, args: string) => ({ functionId, name, arguments: args, ok: true });
const end = (reason = 'answered', extra = {}) =>
  ev({
    type: 'run-end',
    iteration: 0,
    reason,
    llmCalls: 2,
    toolCalls: 1,
    usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
    durationMs: 99,
    ...extra,
  });

describe('a retry of the model call', () => {
  it('changes the run itself: the page draws its notice as it comes, and takes it away once the model answers', () => {
    const view = emptyRun('r');
    applyEvent(view, start());
    applyEvent(view, ev({ type: 'llm-start', format: 'native' }));
    const retry = ev({
      type: 'llm-retry',
      attempt: 1,
      delayMs: 1800,
      error: { name: 'ModelServiceError', message: 'Scripted error: HTTP 502', status: 502 },
    });
    // Before, no id came back: the page, which draws only what changed, kept saying "Waiting for the model…".
    expect(applyEvent(view, retry)).toEqual([RUN_CHANGED]);
    expect(view.retrying).toEqual({ attempt: 1, delayMs: 1800, message: 'Scripted error: HTTP 502', status: 502 });
    // The retry answers: the notice goes with its first words.
    expect(applyEvent(view, ev({ type: 'text-delta', text: 'Here' }))).toContain(RUN_CHANGED);
    expect(view.retrying).toBeUndefined();
    applyEvent(view, retry);
    expect(applyEvent(view, ev({ type: 'llm-start', format: 'native' }))).toContain(RUN_CHANGED);
    expect(view.retrying).toBeUndefined();
  });
});

describe('run view fold', () => {
  it('orders reasoning, tool cards and answer text as they happened, with statuses and timings', () => {
    const view = foldRun('r', [
      start(),
      ev({ type: 'llm-start', format: 'native' }),
      ev({ type: 'reasoning-delta', text: 'I need ' }),
      ev({ type: 'reasoning-delta', text: 'the weather.' }),
      ev({ type: 'llm-end', finishReason: 'tool_calls', durationMs: 5 }),
      ev({ type: 'tool-call', functionId: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }),
      ev({ type: 'tool-call', functionId: 'c2', name: 'get_weather', arguments: '{"city":"Rome"}' }),
      ev({ type: 'tool-result', ...ran('c1', 'get_weather', '{"city":"Paris"}'), content: 'sunny', durationMs: 12 }),
      ev({
        type: 'tool-result',
        functionId: 'c2',
        name: 'get_weather',
        arguments: '{"city":"Rome"}',
        ok: false,
        content: 'bad',
        error: { kind: 'invalid-arguments', message: "missing required property 'city'", type: 'ToolArgumentsError' },
        durationMs: 1,
      }),
      ev({ type: 'llm-start', iteration: 2, format: 'native' }),
      ev({ type: 'text-delta', iteration: 2, text: 'Sunny ' }),
      ev({ type: 'text-delta', iteration: 2, text: 'in Paris.' }),
      ev({ type: 'llm-end', iteration: 2, finishReason: 'stop', durationMs: 5 }),
      end(),
    ]);
    expect(view.blocks.map((b) => b.kind)).toEqual(['reasoning', 'tool', 'tool', 'text']);
    const reasoning = view.blocks[0]!;
    expect(reasoning.kind === 'reasoning' && reasoning.text).toBe('I need the weather.');
    expect(reasoning.kind === 'reasoning' && reasoning.endT! - reasoning.startT).toBeGreaterThan(0);
    const [paris, rome] = view.blocks.slice(1, 3) as ToolBlock[];
    expect(paris).toMatchObject({ name: 'get_weather', status: 'done', result: 'sunny', durationMs: 12 });
    expect(rome).toMatchObject({ status: 'error', error: { message: "missing required property 'city'" } });
    expect(view.blocks[3]).toMatchObject({ kind: 'text', text: 'Sunny in Paris.' });
    expect(view.status).toBe('answered');
    expect(view.usage?.totalTokens).toBe(3);
  });

  it('times thinking up to the tool call when the feed carries no llm-end (as the browser feed does)', () => {
    const view = foldRun('r', [
      start(),
      ev({ type: 'llm-start', format: 'native' }),
      ev({ type: 'reasoning-delta', text: 'Need a tool.' }), // t = +20
      ev({ type: 'tool-call', functionId: 'c1', name: 'calc', arguments: '{}' }), // t = +30
      ev({ type: 'tool-result', ...ran('c1', 'calc', '{}'), content: '2', durationMs: 500 }),
      ev({ type: 'llm-start', iteration: 2, format: 'native' }),
    ]);
    const thinking = view.blocks[0]!;
    expect(thinking.kind === 'reasoning' && thinking.endT! - thinking.startT).toBe(10);
  });

  it('marks the first queued call running, then the next when a result arrives', () => {
    const view = emptyRun('r');
    applyEvent(view, start());
    applyEvent(view, ev({ type: 'tool-call', functionId: '1', name: 'a', arguments: '{}' }));
    applyEvent(view, ev({ type: 'tool-call', functionId: '2', name: 'b', arguments: '{}' }));
    expect((view.blocks as ToolBlock[]).map((b) => b.status)).toEqual(['running', 'queued']);
    const changed = applyEvent(view, ev({ type: 'tool-result', ...ran('1', 'a', '{}'), content: 'x', durationMs: 1 }));
    expect((view.blocks as ToolBlock[]).map((b) => b.status)).toEqual(['done', 'running']);
    expect(changed).toEqual(['tool-1-1', 'tool-1-2']);
  });

  it('reports only the growing block as changed while text streams', () => {
    const view = emptyRun('r');
    applyEvent(view, start());
    applyEvent(view, ev({ type: 'tool-call', functionId: '1', name: 'a', arguments: '{}' }));
    applyEvent(view, ev({ type: 'text-delta', iteration: 2, text: 'a' }));
    expect(applyEvent(view, ev({ type: 'text-delta', iteration: 2, text: 'b' }))).toEqual(['t2']);
  });

  it('says why a run stopped, and settles calls that never finished', () => {
    const view = foldRun('r', [
      start(),
      ev({ type: 'tool-call', functionId: '1', name: 'slow', arguments: '{}' }),
      end('aborted'),
    ]);
    expect(view.status).toBe('aborted');
    expect(view.blocks[0]).toMatchObject({
      status: 'error',
      error: { message: 'The run ended before this call started; it was not run.' },
    });
    const error = foldRun('r', [
      start(),
      end('error', { error: { name: 'ModelServiceError', message: 'Model server error 503', status: 503 } }),
    ]);
    expect(error.error?.message).toBe('Model server error 503');
  });

  it('shows a call stopped while it ran as stopped, and the calls after it as not run', () => {
    const told = 'The run was stopped while this call was running; it did not finish.';
    const view = foldRun('r', [
      start(),
      ev({ type: 'tool-call', functionId: '1', name: 'slow', arguments: '{}' }),
      ev({ type: 'tool-call', functionId: '2', name: 'slow', arguments: '{}' }),
      ev({
        type: 'tool-result',
        functionId: '1',
        name: 'slow',
        arguments: '{}',
        ok: false,
        content: told,
        error: { kind: 'stopped', type: 'Stopped', message: told },
        durationMs: 2500,
      }),
      end('aborted'),
    ]);
    expect(view.blocks.map((b) => (b as ToolBlock).status)).toEqual(['stopped', 'error']);
    expect(view.blocks[0]).toMatchObject({ result: told, durationMs: 2500 });
    expect(view.blocks[1]).toMatchObject({ error: { kind: 'not-run' } });
  });

  it('shows a run the server lost as interrupted, keeping what streamed', () => {
    const view = foldRun('r', [start(), ev({ type: 'text-delta', text: 'partial' })]);
    markInterrupted(view);
    expect(view.status).toBe('interrupted');
    expect(view.blocks[0]).toMatchObject({ kind: 'text', text: 'partial' });
  });

  it('shows a ReAct run as steps (thought, tool card with its result, answer) from the parts its text says', () => {
    const piece = (part: string, text: string, iteration = 1) => ev({ type: 'text-delta', iteration, text, part });
    const view = foldRun('r', [
      start('react'),
      piece('markup', 'Thought: ', 0),
      piece('thought', 'I need to '),
      piece('thought', 'compute.'),
      piece('markup', '\nAction: '),
      piece('action', 'calculator'),
      piece('markup', '\nAction Input: '),
      piece('action-input', '{"expression": "6*7"}'),
      piece('markup', '\n'),
      ev({ type: 'tool-call', functionId: '1', name: 'calculator', arguments: '{"expression": "6*7"}' }),
      ev({ type: 'tool-result', ...ran('1', 'calculator', '{"expression": "6*7"}'), content: '42', durationMs: 3 }),
      piece('markup', 'Observation: '),
      piece('observation', '42'),
      piece('markup', '\nThought: '),
      piece('thought', 'I know it.', 2),
      piece('markup', '\nFinal Answer: ', 2),
      piece('answer', '4', 2),
      piece('answer', '2', 2),
      end(),
    ]);
    expect(view.blocks.map((b) => `${b.kind}:${b.kind === 'reasoning' ? b.label : ''}`)).toEqual([
      'reasoning:thought',
      'tool:',
      'reasoning:thought',
      'text:',
    ]);
    expect(view.blocks[0]).toMatchObject({ text: 'I need to compute.' });
    expect(view.blocks[1]).toMatchObject({
      name: 'calculator',
      arguments: '{"expression": "6*7"}',
      status: 'done',
      result: '42',
      durationMs: 3,
    });
    expect(view.blocks[2]).toMatchObject({ text: 'I know it.' });
    expect(view.blocks[3]).toMatchObject({ kind: 'text', text: '42' });
  });
});
