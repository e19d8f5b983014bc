import { describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '../protocol/events';
import { ScriptPlayer } from '../../scripts/model-server/script';
import { FIXTURE_SCHEMA } from '../protocol/fixture';
import { runToFixture } from './fixture';

const ev = (e: Record<string, unknown>): AgentEvent => parseAgentEvent({ runId: 'run-abc', ...e });

const events: AgentEvent[] = [
  ev({
    type: 'run-start',
    iteration: 0,
    t: 0,
    agent: 'assistant',
    kind: 'fncall',
    model: 'qwen3',
    fncallMode: 'nous',
    lang: 'en',
    maxLlmCalls: 5,
    tools: ['calculator'],
    input: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: [{ text: 'What is 6*7?' }] },
    ],
  }),
  ev({ type: 'llm-start', iteration: 1, t: 1, format: 'nous' }),
  ev({
    type: 'llm-retry',
    iteration: 1,
    t: 2,
    attempt: 1,
    delayMs: 5,
    error: { name: 'RateLimitError', message: 'busy', status: 429 },
  }),
  ev({
    type: 'llm-retry',
    iteration: 1,
    t: 3,
    attempt: 2,
    delayMs: 5,
    error: { name: 'APIConnectionError', message: 'reset' },
  }),
  ev({ type: 'reasoning-delta', iteration: 1, t: 4, text: 'think' }),
  ev({
    type: 'llm-end',
    iteration: 1,
    t: 9,
    finishReason: 'stop',
    durationMs: 8,
    usage: { promptTokens: 50, completionTokens: 9, totalTokens: 59 },
    raw: {
      content:
        '<think>think</think><tool_call>\n{"name": "calculator", "arguments": {"expression": "6*7"}}\n</tool_call>',
    },
  }),
  ev({
    type: 'tool-call',
    iteration: 1,
    t: 10,
    functionId: '1',
    name: 'calculator',
    arguments: '{"expression": "6*7"}',
  }),
  ev({
    type: 'tool-result',
    iteration: 1,
    t: 11,
    functionId: '1',
    name: 'calculator',
    arguments: '{"expression": "6*7"}',
    ok: true,
    content: '42',
    durationMs: 1,
  }),
  ev({ type: 'llm-start', iteration: 2, t: 12, format: 'native' }),
  ev({ type: 'reasoning-delta', iteration: 2, t: 13, text: 'api reasoning' }),
  ev({ type: 'text-delta', iteration: 2, t: 14, text: 'It is 42.' }),
  ev({ type: 'llm-end', iteration: 2, t: 15, finishReason: 'stop', durationMs: 3 }),
  ev({ type: 'llm-start', iteration: 3, t: 16, format: 'native' }),
  ev({
    type: 'llm-end',
    iteration: 3,
    t: 17,
    finishReason: 'tool_calls',
    durationMs: 1,
    raw: { content: '', toolCalls: [{ id: 'call_9', name: 'calculator', arguments: '{}' }] },
  }),
  ev({ type: 'llm-start', iteration: 4, t: 18, format: 'native' }),
  ev({
    type: 'run-end',
    iteration: 0,
    t: 19,
    reason: 'aborted',
    llmCalls: 4,
    toolCalls: 1,
    usage: { promptTokens: 50, completionTokens: 9, totalTokens: 59 },
    durationMs: 19,
  }),
];

describe('runToFixture', () => {
  it('turns each finished model call into a scripted reply, as the model sent it', () => {
    const fixture = runToFixture(events, new Date(0));
    expect(fixture.fixture).toBe(FIXTURE_SCHEMA);
    expect(fixture.source).toEqual({
      runId: 'run-abc',
      model: 'qwen3',
      // The kind as the inspector and the Runs page name it, not the message name "assistant" (the Assistant kind's id).
      agent: 'FnCallAgent',
      kind: 'fncall',
      fncallMode: 'nous',
      exportedAt: '1970-01-01T00:00:00.000Z',
    });
    expect(fixture.userMessages).toEqual(['hi', 'What is 6*7?']);
    expect(fixture.replies).toEqual([
      // The HTTP failure is replayed; the connection error (no status) cannot be and is left out.
      { fault: { kind: 'status', status: 429 } },
      {
        content:
          '<think>think</think><tool_call>\n{"name": "calculator", "arguments": {"expression": "6*7"}}\n</tool_call>',
        finishReason: 'stop',
        usage: { prompt_tokens: 50, completion_tokens: 9 },
      },
      { content: 'It is 42.', reasoning: 'api reasoning', finishReason: 'stop' },
      { toolCalls: [{ id: 'call_9', name: 'calculator', arguments: '{}' }], finishReason: 'tool_calls' },
      // Iteration 4 never finished (the run was stopped): nothing to replay.
    ]);
  });

  it('is a scenario the scripted model server plays in order, and says when it runs out', async () => {
    const fixture = JSON.parse(JSON.stringify(runToFixture(events)));
    const player = new ScriptPlayer(fixture);
    const req = { method: 'POST', path: '/v1/chat/completions', headers: {}, body: { messages: [] }, at: 0 };
    const played = [];
    for (let i = 0; i < 4; i++) played.push(await player.next(req));
    expect(played.map((r) => r.fault?.kind ?? r.finishReason)).toEqual(['status', 'stop', 'stop', 'tool_calls']);
    await expect(player.next(req)).rejects.toThrow('script exhausted at chat request #4');
  });

  it('plays a fixture saved before the kind was recorded (source.agent "assistant") the same', async () => {
    const old = JSON.parse(JSON.stringify(runToFixture(events)));
    old.source = {
      runId: 'run-abc',
      model: 'qwen3',
      agent: 'assistant',
      fncallMode: 'nous',
      exportedAt: '1970-01-01T00:00:00.000Z',
    };
    const player = new ScriptPlayer(old);
    const req = { method: 'POST', path: '/v1/chat/completions', headers: {}, body: { messages: [] }, at: 0 };
    const played = [];
    for (let i = 0; i < 4; i++) played.push(await player.next(req));
    expect(played.map((r) => r.fault?.kind ?? r.finishReason)).toEqual(['status', 'stop', 'stop', 'tool_calls']);
  });

  it('names the agent of a log without its kind (an older run) as the log does', () => {
    const [start, ...rest] = events;
    const { kind: _kind, ...noKind } = start as Extract<AgentEvent, { type: 'run-start' }>;
    void _kind;
    const fixture = runToFixture([noKind as AgentEvent, ...rest]);
    expect(fixture.source.agent).toBe('assistant');
    expect(fixture.source).not.toHaveProperty('kind');
  });
});
