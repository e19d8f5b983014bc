import { describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '../protocol/events';
import { buildRunExport, parseRunExport, RUN_EXPORT_SCHEMA } from './export';

const events: AgentEvent[] = [
  {
    type: 'run-start',
    runId: 'r1',
    iteration: 0,
    t: 0,
    agent: 'a',
    kind: 'fncall',
    model: 'm',
    lang: 'en',
    maxLlmCalls: 5,
    tools: [],
    input: [{ role: 'user', content: 'hi' }],
  },
  {
    type: 'llm-start',
    runId: 'r1',
    iteration: 1,
    t: 1,
    format: 'none',
    request: { model: 'm', messages: [{ role: 'user', content: 'hi' }], params: {} },
  },
  { type: 'text-delta', runId: 'r1', iteration: 1, t: 3, text: 'Hello ✿ "quoted" \n' },
  { type: 'llm-end', runId: 'r1', iteration: 1, t: 4, finishReason: 'stop', durationMs: 3 },
  {
    type: 'run-end',
    runId: 'r1',
    iteration: 0,
    t: 5,
    reason: 'answered',
    llmCalls: 1,
    toolCalls: 0,
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    durationMs: 5,
  },
].map(parseAgentEvent);

const bundle = () =>
  buildRunExport(
    { id: 'r1', status: 'answered', startedAt: 1, userMessage: 'hi' },
    structuredClone(events),
    new Date(0),
  );

describe('run export', () => {
  it('round-trips through JSON text unchanged', async () => {
    const text = JSON.stringify(bundle());
    const back = await parseRunExport(text);
    expect(back).toEqual({ ok: true, value: bundle() });
    expect(JSON.parse(text).schema).toBe(RUN_EXPORT_SCHEMA);
  });

  it('rejects files that are not JSON or not a run export, saying so', async () => {
    expect(await parseRunExport('{"schema": ')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^This file is not JSON/),
    });
    expect(await parseRunExport('[1,2]')).toMatchObject({
      ok: false,
      error: expect.stringContaining('must hold a JSON object'),
    });
    expect(await parseRunExport('{"replies": []}')).toEqual({
      ok: false,
      error: `This file is not an Agent Studio run export (its "schema" is missing; expected "${RUN_EXPORT_SCHEMA}").`,
    });
    expect(await parseRunExport(JSON.stringify({ ...bundle(), schema: 'agent-studio.run/9' }))).toEqual({
      ok: false,
      error: `This run export uses schema agent-studio.run/9; this version of Agent Studio reads ${RUN_EXPORT_SCHEMA}.`,
    });
  });

  it('names the damaged fields of a bad export by their path', async () => {
    const b = bundle() as unknown as { events: Record<string, unknown>[]; run: Record<string, unknown> };
    b.events[2] = { ...b.events[2], text: 42 };
    b.events[3] = { ...b.events[3], type: 'llm-finish' };
    delete b.run.id;
    const result = await parseRunExport(JSON.stringify(b));
    expect(result.ok).toBe(false);
    const error = result.ok ? '' : result.error;
    expect(error).toMatch(/^This run export is damaged or incomplete:/);
    expect(error).toContain('run.id:');
    expect(error).toContain('events[2].text:');
    expect(error).toContain('events[3].type:');
  });

  it('rejects events of another run, and an empty event list', async () => {
    const b = bundle();
    const mixed = { ...b, events: [...b.events, { ...b.events[2]!, runId: 'other' }] };
    expect(await parseRunExport(JSON.stringify(mixed))).toMatchObject({
      ok: false,
      error: expect.stringContaining('events[5].runId: belongs to run other, not to the exported run r1'),
    });
    expect(await parseRunExport(JSON.stringify({ ...b, events: [] }))).toMatchObject({
      ok: false,
      error: expect.stringContaining('events: a run needs at least one event'),
    });
  });

  it('reads an export of the older schema, its events in the shape of today', async () => {
    const { kind: _kind, ...start } = events[0] as Extract<AgentEvent, { type: 'run-start' }>;
    const old = {
      ...bundle(),
      schema: 'agent-studio.run/1',
      events: [{ ...start, agentType: 'FnCallAgent' }, ...events.slice(1)],
    };
    const read = await parseRunExport(JSON.stringify(old));
    expect(read).toMatchObject({ ok: true, value: { schema: RUN_EXPORT_SCHEMA } });
    expect(read.ok && read.value.events).toEqual(events);
  });
});
