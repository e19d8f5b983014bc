import { describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '../protocol/events';
import { foldInspection } from './fold';
import { runBars } from './timeline';

const R = 'run-1';
const ev = (e: Record<string, unknown>): AgentEvent => parseAgentEvent({ runId: R, ...e });

/** A nous-format run: a tool call in <tool_call> tags with bad arguments, a retry of it, then an answer. */
function nousRun(): AgentEvent[] {
  const request1 = {
    model: 'm',
    messages: [{ role: 'user', content: 'What is 6*7?' }],
    stop: ['✿RESULT✿'],
    params: { temperature: 0.2 },
  };
  const request2 = { ...request1, messages: [...request1.messages, { role: 'user', content: '<tool_response>42' }] };
  return [
    ev({
      type: 'run-start',
      iteration: 0,
      t: 0,
      agent: 'a',
      kind: 'fncall',
      model: 'm',
      fncallMode: 'nous',
      lang: 'en',
      maxLlmCalls: 20,
      tools: ['calculator'],
      input: [{ role: 'user', content: 'What is 6*7?' }],
    }),
    ev({
      type: 'llm-start',
      iteration: 1,
      t: 2,
      format: 'nous',
      request: request1,
      truncation: { inputTokens: 900, budget: 1000, notes: ['dropped 2 old turns'] },
    }),
    ev({
      type: 'llm-retry',
      iteration: 1,
      t: 3,
      attempt: 1,
      delayMs: 10,
      error: { name: 'RateLimit', message: 'slow down', status: 429 },
    }),
    ev({ type: 'reasoning-delta', iteration: 1, t: 20, text: 'need math' }),
    ev({ type: 'text-delta', iteration: 1, t: 22, text: 'Let me compute.' }),
    ev({
      type: 'llm-end',
      iteration: 1,
      t: 50,
      finishReason: 'stop',
      durationMs: 48,
      ttftMs: 18,
      usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
      raw: {
        content:
          '<think>need math</think>Let me compute.<tool_call>\n{"name": "calculator", "arguments": {"expr": 1}}\n</tool_call>',
      },
      parseErrors: ['second call had no name'],
    }),
    ev({ type: 'tool-call', iteration: 1, t: 51, functionId: '1', name: 'calculator', arguments: '{"expr": 1}' }),
    ev({
      type: 'tool-result',
      iteration: 1,
      t: 53,
      functionId: '1',
      name: 'calculator',
      arguments: '{"expr": 1}',
      ok: false,
      content: 'Error: expression is required',
      durationMs: 2,
      error: { kind: 'invalid-arguments', message: 'expression is required', type: 'ValidationError' },
    }),
    ev({
      type: 'retrieval',
      iteration: 2,
      t: 60,
      by: 'assistant',
      query: 'six times seven',
      candidates: [{ chunkId: 'c1', fileId: 'f', fileName: 'a.pdf', score: 0.9, tokens: 40, text: 'x', used: true }],
      budgetTokens: 100,
      usedTokens: 40,
      durationMs: 5,
    }),
    ev({ type: 'llm-start', iteration: 2, t: 61, format: 'nous', request: request2 }),
    ev({ type: 'text-delta', iteration: 2, t: 70, text: 'It is 42.' }),
    ev({
      type: 'llm-end',
      iteration: 2,
      t: 80,
      finishReason: 'stop',
      durationMs: 19,
      ttftMs: 9,
      usage: { promptTokens: 130, completionTokens: 5, totalTokens: 135 },
    }),
    ev({
      type: 'run-end',
      iteration: 0,
      t: 81,
      reason: 'answered',
      llmCalls: 2,
      toolCalls: 1,
      usage: { promptTokens: 230, completionTokens: 25, totalTokens: 255 },
      durationMs: 81,
    }),
  ];
}

describe('foldInspection', () => {
  it('gives each model call its request, raw response, parse errors, tool steps and timing', () => {
    const run = foldInspection(nousRun());
    expect(run).toMatchObject({
      runId: R,
      kind: 'fncall',
      fncallMode: 'nous',
      llmCalls: 2,
      toolCalls: 1,
      durationMs: 81,
    });
    expect(run.iterations.map((i) => i.n)).toEqual([1, 2]);
    const [one, two] = run.iterations;
    expect(one!.request?.params).toEqual({ temperature: 0.2 });
    expect(one!.truncation?.notes).toEqual(['dropped 2 old turns']);
    expect(one!.retries).toEqual([{ attempt: 1, delayMs: 10, error: expect.objectContaining({ status: 429 }) }]);
    expect(one!.response).toMatchObject({
      shownText: 'Let me compute.',
      reasoning: 'need math',
      separateReasoning: '',
      differsFromShown: true,
    });
    expect(one!.response.content).toContain('<tool_call>');
    expect(one!.parseErrors).toEqual(['second call had no name']);
    expect(one!.tools).toEqual([
      expect.objectContaining({
        name: 'calculator',
        arguments: '{"expr": 1}',
        ok: false,
        startT: 51,
        endT: 53,
        error: expect.objectContaining({ kind: 'invalid-arguments', message: 'expression is required' }),
      }),
    ]);
    expect(two!.retrievals[0]).toMatchObject({ query: 'six times seven', startT: 55, usedTokens: 40 });
    expect(two!.response).toMatchObject({ content: 'It is 42.', differsFromShown: false });
    expect(two!.request?.messages.at(-1)).toEqual({ role: 'user', content: '<tool_response>42' });
    expect(run.stop).toMatchObject({
      reason: 'answered',
      explanation: expect.stringContaining('last reply called no tool'),
    });
    expect(run.usage.totalTokens).toBe(255);
  });

  it('lays the phases out as a waterfall on the run clock', () => {
    const bars = runBars(foldInspection(nousRun()));
    expect(bars.map((b) => [b.iteration, b.kind, b.startMs, b.endMs])).toEqual([
      [1, 'ttft', 2, 20],
      [1, 'generation', 20, 50],
      [1, 'tool', 51, 53],
      [2, 'retrieval', 55, 60],
      [2, 'ttft', 61, 70],
      [2, 'generation', 70, 80],
    ]);
    expect(bars.find((b) => b.kind === 'tool')?.failed).toBe(true);
  });

  it('says why a run stopped, and sums what it can of an unfinished run', () => {
    const events = nousRun();
    const capped = events.map((e) => (e.type === 'run-end' ? { ...e, reason: 'max-iterations' as const } : e));
    expect(foldInspection(capped).stop.explanation).toMatch(/limit of 20 model calls/);
    const failed = events.map((e) =>
      e.type === 'run-end' ? { ...e, reason: 'error' as const, error: { name: 'APIError', message: 'model down' } } : e,
    );
    expect(foldInspection(failed).stop).toMatchObject({ reason: 'error', explanation: 'Failed: model down' });

    const cut = foldInspection(events.slice(0, 8));
    expect(cut.stop.reason).toBe('running');
    expect(cut.usage.totalTokens).toBe(120);
    expect(cut.llmCalls).toBe(1);
    expect(cut.toolCalls).toBe(1);
  });

  it('shows a call a stop cut before its end: lasting until the run ended, answering what had streamed', () => {
    const [runStart] = nousRun();
    const stopped = foldInspection([
      runStart!,
      ev({ type: 'llm-start', iteration: 1, t: 5, format: 'native' }),
      ev({ type: 'reasoning-delta', iteration: 1, t: 40, text: 'Herons first.' }),
      ev({ type: 'text-delta', iteration: 1, t: 60, text: 'Herons stand ' }),
      ev({ type: 'text-delta', iteration: 1, t: 80, text: 'still for hours' }),
      ev({
        type: 'run-end',
        iteration: 0,
        t: 905,
        reason: 'aborted',
        llmCalls: 1,
        toolCalls: 0,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 905,
      }),
    ]);
    // Before: no end, no duration (an empty bar) and "(no text content)" for what the page had shown.
    expect(stopped.iterations[0]).toMatchObject({ startT: 5, endT: 905, durationMs: 900, cut: true });
    expect(stopped.iterations[0]!.response).toMatchObject({
      content: 'Herons stand still for hours',
      separateReasoning: 'Herons first.',
    });
    expect(stopped.iterations[0]!.usage).toBeUndefined();
  });

  it('says of a call left without a result what the chat card says: interrupted while running, or not run', () => {
    const [runStart] = nousRun();
    const events = [
      runStart!,
      ev({ type: 'llm-start', iteration: 1, t: 5, format: 'native' }),
      ev({ type: 'llm-end', iteration: 1, t: 9, finishReason: 'tool_calls', durationMs: 4 }),
      ev({ type: 'tool-call', iteration: 1, t: 10, functionId: 'a', name: 'calculator', arguments: '{}' }),
      ev({ type: 'tool-call', iteration: 1, t: 10, functionId: 'b', name: 'calculator', arguments: '{}' }),
    ];
    // The server stopped mid-call: no run-end; the store marked the run interrupted.
    const lost = foldInspection(events, { status: 'interrupted' });
    // Paused before the first call: waiting, it never started; approved, it was running.
    const approval = ev({
      type: 'tool-approval',
      iteration: 1,
      t: 10,
      functionId: 'a',
      name: 'calculator',
      arguments: '{}',
    });
    const paused = foldInspection([...events, approval], { status: 'interrupted' });
    expect(paused.iterations[0]!.tools.map((s) => s.unfinished?.type)).toEqual(['NotRun', 'NotRun']);
    const decided = ev({
      type: 'tool-decision',
      iteration: 1,
      t: 11,
      functionId: 'a',
      name: 'calculator',
      decision: { action: 'run' },
    });
    const approved = foldInspection([...events, approval, decided], { status: 'interrupted' });
    expect(approved.iterations[0]!.tools.map((s) => s.unfinished?.type)).toEqual(['ServerStopped', 'NotRun']);
    expect(lost.stop).toMatchObject({ reason: 'interrupted' });
    expect(lost.iterations[0]!.tools.map((s) => s.unfinished)).toEqual([
      {
        kind: 'interrupted',
        type: 'ServerStopped',
        message: 'The server stopped while this call was running; it has no result.',
      },
      { kind: 'not-run', type: 'NotRun', message: 'The run ended before this call started; it was not run.' },
    ]);
    const failed = foldInspection([
      ...events,
      ev({
        type: 'run-end',
        iteration: 0,
        t: 900,
        reason: 'error',
        error: { name: 'StoreError', message: 'The database is locked by another program.' },
        llmCalls: 1,
        toolCalls: 1,
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 900,
      }),
    ]);
    expect(failed.iterations[0]!.tools.map((s) => s.unfinished?.type)).toEqual(['RunFailed', 'NotRun']);
    // Still running: nothing is said of its calls yet.
    expect(foldInspection(events).iterations[0]!.tools.map((s) => s.unfinished)).toEqual([undefined, undefined]);
  });

  it('keeps native tool calls and reasoning_content as the server sent them', () => {
    const run = foldInspection([
      ev({ type: 'llm-start', iteration: 1, t: 0, format: 'native' }),
      ev({ type: 'reasoning-delta', iteration: 1, t: 1, text: 'think' }),
      ev({
        type: 'llm-end',
        iteration: 1,
        t: 5,
        finishReason: 'tool_calls',
        durationMs: 5,
        raw: {
          content: '',
          reasoning: 'think',
          toolCalls: [{ id: 'call_1', name: 'calculator', arguments: '{"expression":"1+1"}' }],
        },
      }),
    ]);
    expect(run.iterations[0]!.response).toMatchObject({
      separateReasoning: 'think',
      toolCalls: [{ id: 'call_1', name: 'calculator', arguments: '{"expression":"1+1"}' }],
    });
    expect(run.iterations[0]!.request).toBeUndefined();
  });
});

describe('a run with child runs', () => {
  const usage = (promptTokens: number, completionTokens: number) => ({
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
  });
  const start = (runId: string, model: string, pricing?: { inputPerMTok: number; outputPerMTok: number }) => ({
    runId,
    type: 'run-start',
    iteration: 0,
    t: 0,
    agent: model,
    kind: runId === R ? 'router' : 'fncall',
    model,
    lang: 'en',
    maxLlmCalls: 8,
    tools: [],
    ...(pricing ? { pricing } : {}),
  });
  const call = (runId: string, iteration: number, u: ReturnType<typeof usage>) => ({
    runId,
    type: 'llm-end',
    iteration,
    t: 1,
    finishReason: 'stop',
    usage: u,
    durationMs: 1,
  });
  const child = (agent: string, event: Record<string, unknown>) =>
    ev({ type: 'child', iteration: 1, t: 1, agent, event });

  it('costs the run with its helpers, each at its own prices; a helper without a price is left out and counted', () => {
    const run = foldInspection([
      ev(start(R, 'router-model', { inputPerMTok: 1, outputPerMTok: 1 })),
      ev(call(R, 1, usage(10, 2))),
      child('adder', start('adder-run', 'adder-model', { inputPerMTok: 4, outputPerMTok: 4 })),
      child('adder', call('adder-run', 1, usage(100, 50))),
      child('free', start('free-run', 'free-model')),
      child('free', call('free-run', 1, usage(7, 7))),
    ]);
    expect(run.cost).toEqual({ state: 'priced', amount: 12 / 1e6, uncounted: 0 });
    expect(run.totalCost?.state).toBe('priced');
    expect(run.totalCost).toMatchObject({ uncounted: 1 });
    expect(run.totalCost?.state === 'priced' && run.totalCost.amount).toBeCloseTo((12 + 600) / 1e6, 12);
  });

  it('has no total of its own without children', () => {
    const run = foldInspection([ev(start(R, 'm', { inputPerMTok: 1, outputPerMTok: 1 })), ev(call(R, 1, usage(1, 1)))]);
    expect(run.totalCost).toBeUndefined();
  });
});
