// The history a finished run leaves for the next one (foldEvents with its outcome, as the store keeps it): every call
// has a result, so the next request is one an OpenAI-compatible server takes (each assistant tool_call answered by
// a tool message). Before, a call the run failed, stopped or lost its server during (and the calls after it) had
// none, and OpenAI refuses such a request.
import { describe, expect, it } from 'vitest';
import { toWireMessages, type WireMessage } from '../llm/oai-wire';
import type { AgentEvent } from '../protocol/events';
import { STOPPED_WHILE_RUNNING } from './tool-call';
import { foldEvents } from './fold';

let t = 0;
const ev = (e: Record<string, unknown>, runId = 'r'): AgentEvent =>
  ({ runId, iteration: 1, t: (t += 10), ...e }) as AgentEvent;
const start = (runId = 'r', agent = 'assistant') =>
  ev(
    { type: 'run-start', iteration: 0, agent, kind: 'fncall', model: 'm', lang: 'en', maxLlmCalls: 20, tools: [] },
    runId,
  );
const call = (functionId: string, extra: Record<string, unknown> = {}, runId = 'r') =>
  ev({ type: 'tool-call', functionId, name: 'slow', arguments: '{}', ...extra }, runId);
const result = (functionId: string, over: Record<string, unknown> = {}) =>
  ev({
    type: 'tool-result',
    functionId,
    name: 'slow',
    arguments: '{}',
    ok: true,
    content: 'slept',
    durationMs: 5,
    ...over,
  });
const end = (reason: string, runId = 'r') =>
  ev(
    {
      type: 'run-end',
      iteration: 0,
      reason,
      llmCalls: 1,
      toolCalls: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 1,
    },
    runId,
  );

/** The tool_call ids of `wire` that no tool message answers. */
function unanswered(wire: WireMessage[]): string[] {
  const answered = new Set(wire.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
  return wire
    .flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []))
    .map((c) => c.id)
    .filter((id) => !answered.has(id));
}

/** The next request's messages: the question, the run's history, the next question. */
const nextRequest = (history: ReturnType<typeof foldEvents>) =>
  toWireMessages([{ role: 'user', content: 'Sleep twice' }, ...history, { role: 'user', content: 'And now?' }]);

const results = (history: ReturnType<typeof foldEvents>) =>
  history.filter((m) => m.role === 'function').map((m) => [m.extra?.function_id, m.content]);

describe('the history of a run that ended with calls left without a result', () => {
  it('a run that failed while a call ran: that call was interrupted, the one after it not run', () => {
    const history = foldEvents([start(), call('a'), call('b'), end('error')], 'error');
    expect(results(history)).toEqual([
      ['a', 'The run failed while this call was running; it has no result.'],
      ['b', 'The run ended before this call started; it was not run.'],
    ]);
    expect(unanswered(nextRequest(history))).toEqual([]);
  });

  it('a run its server stopped during (no run-end; stored as interrupted), after a call that ran', () => {
    const history = foldEvents([start(), call('a'), call('b'), call('c'), result('a')], 'interrupted');
    expect(results(history)).toEqual([
      ['a', 'slept'],
      ['b', 'The server stopped while this call was running; it has no result.'],
      ['c', 'The run ended before this call started; it was not run.'],
    ]);
    expect(unanswered(nextRequest(history))).toEqual([]);
  });

  it('pause before tools: a call approved and running when the server stopped was interrupted; one waiting was not run', () => {
    const approval = (functionId: string) => ev({ type: 'tool-approval', functionId, name: 'slow', arguments: '{}' });
    const decided = ev({ type: 'tool-decision', functionId: 'a', name: 'slow', decision: { action: 'run' } });
    expect(results(foldEvents([start(), call('a'), approval('a'), decided], 'interrupted'))).toEqual([
      ['a', 'The server stopped while this call was running; it has no result.'],
    ]);
    expect(results(foldEvents([start(), call('a'), approval('a')], 'interrupted'))).toEqual([
      ['a', 'The run ended before this call started; it was not run.'],
    ]);
  });

  it('a stopped run: the running call keeps its stopped result, the one after it is not run', () => {
    const stopped = {
      ok: false,
      content: STOPPED_WHILE_RUNNING,
      error: { kind: 'stopped', type: 'Stopped', message: STOPPED_WHILE_RUNNING },
    };
    const history = foldEvents([start(), call('a'), call('b'), result('a', stopped), end('aborted')], 'aborted');
    expect(results(history)).toEqual([
      ['a', STOPPED_WHILE_RUNNING],
      ['b', 'The run ended before this call started; it was not run.'],
    ]);
    expect(unanswered(nextRequest(history))).toEqual([]);
  });

  it('a call of a child run still going when its parent failed is answered too, in the child’s place', () => {
    const child = (e: AgentEvent) => ev({ type: 'child', agent: 'helper', event: e });
    const history = foldEvents(
      [start(), child(start('c', 'helper')), child(call('x', {}, 'c')), end('error')],
      'error',
    );
    expect(history.at(-1)).toMatchObject({
      role: 'function',
      content: 'The run failed while this call was running; it has no result.',
      extra: { function_id: 'x' },
    });
    expect(unanswered(nextRequest(history))).toEqual([]);
  });

  it('leaves the caller’s own tools for the caller to answer, and a run still going as it is', () => {
    const handedBack = foldEvents([start(), call('a', { client: true }), end('tool-calls')], 'tool-calls');
    expect(results(handedBack)).toEqual([]);
    expect(results(foldEvents([start(), call('a')]))).toEqual([]);
  });
});
