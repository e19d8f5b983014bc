// Run logs stored by older versions read as today's events: here, the user's decision on a paused call, which the
// call's tool-result used to carry, is told as the tool-decision event it is today, just before that result.
import { describe, expect, it } from 'vitest';
import { AgentEventSchema } from '../protocol/events';
import { upgradeRunLog } from './upgrade-log';

const start = {
  type: 'run-start',
  runId: 'r',
  iteration: 0,
  t: 0,
  agent: 'a',
  kind: 'fncall',
  model: 'm',
  lang: 'en',
  maxLlmCalls: 20,
  tools: [],
};
const call = {
  type: 'tool-call',
  runId: 'r',
  iteration: 1,
  t: 10,
  functionId: 'c1',
  name: 'calculator',
  arguments: '{"expression":"6*7"}',
};
const approval = { ...call, type: 'tool-approval', t: 11 };
const result = {
  type: 'tool-result',
  runId: 'r',
  iteration: 1,
  t: 40,
  functionId: 'c1',
  name: 'calculator',
  arguments: '{"expression":"2+3"}',
  ok: true,
  content: '5',
  durationMs: 25,
};

describe('upgradeRunLog: decisions stored on the tool-result', () => {
  it('becomes a tool-decision event when the call started running, and leaves the result without it', () => {
    const decision = { action: 'run', arguments: '{"expression":"2+3"}' };
    const events = upgradeRunLog([start, call, approval, { ...result, decision }]);
    expect(events.map((e) => e.type)).toEqual([
      'run-start',
      'tool-call',
      'tool-approval',
      'tool-decision',
      'tool-result',
    ]);
    expect(events[3]).toEqual({
      type: 'tool-decision',
      runId: 'r',
      iteration: 1,
      t: 15,
      functionId: 'c1',
      name: 'calculator',
      decision,
    });
    expect(events[4]).toEqual(result);
    for (const e of events) expect(AgentEventSchema.safeParse(e).success).toBe(true);
  });

  it('returns a log of today’s shape as it is', () => {
    const today = [start, call, result];
    expect(upgradeRunLog(today)).toBe(today);
  });
});

describe('upgradeRunLog: a model server nothing answered at, coded `connection`', () => {
  it('reads as today’s model-unreachable, the server’s words as its detail, in a child run’s events too', () => {
    const message = 'Cannot reach the model server: Connection error. (connect ECONNREFUSED 127.0.0.1:9)';
    const detail = 'Connection error. (connect ECONNREFUSED 127.0.0.1:9)';
    const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const end = {
      type: 'run-end',
      runId: 'r',
      iteration: 0,
      t: 50,
      reason: 'error',
      llmCalls: 1,
      toolCalls: 0,
      usage,
      durationMs: 50,
    };
    const retry = {
      type: 'llm-retry',
      runId: 'r',
      iteration: 1,
      t: 20,
      attempt: 1,
      delayMs: 10,
      error: { name: 'ModelServiceError', message, code: 'connection' },
    };
    const child = {
      type: 'child',
      runId: 'r',
      iteration: 0,
      t: 30,
      agent: 'Reader 1',
      event: { ...retry, runId: 'c' },
    };
    const failed = {
      ...end,
      error: { name: 'ModelServiceError', message: `Reader 1: ${message}`, code: 'connection', agent: 'Reader 1' },
    };
    const events = upgradeRunLog([start, retry, child, failed]);
    const today = { name: 'ModelServiceError', message, code: 'model-unreachable', values: { detail } };
    expect(events[1]).toEqual({ ...retry, error: today });
    expect(events[2]).toEqual({ ...child, event: { ...retry, runId: 'c', error: today } });
    expect(events[3]).toEqual({ ...failed, error: { ...failed.error, code: 'model-unreachable', values: { detail } } });
    for (const e of events) expect(AgentEventSchema.safeParse(e).success).toBe(true);
  });
});

describe('upgradeRunLog: the model layer’s codes from before they were the shared ones', () => {
  const retry = (code: string, message: string) => ({
    type: 'llm-retry',
    runId: 'r',
    iteration: 1,
    t: 20,
    attempt: 1,
    delayMs: 0,
    error: { name: 'ModelServiceError', message, status: 400, code },
  });

  it('reads each as today’s code, with the words its sentence fills in taken from the message', () => {
    const refused =
      'The model server refused native tool calls (Model server error 400: tools are not supported); the tools now ' +
      'go in the text (nous format), and this model keeps that from now on.';
    const old = [
      retry('tools_refused', refused),
      retry('400', 'messages must not be empty'),
      retry('local_model', 'The local model failed: the context is full'),
      retry('local_model_load', 'The local model tiny.gguf could not be loaded: not a GGUF file: bad magic'),
    ];
    const events = upgradeRunLog([start, ...old]);
    expect(events.slice(1).map((e) => (e.type === 'llm-retry' ? [e.error.code, e.error.values] : []))).toEqual([
      ['tools-refused', { detail: 'Model server error 400: tools are not supported' }],
      ['model-input-invalid', { detail: 'messages must not be empty' }],
      ['local-model-failed', { detail: 'the context is full' }],
      ['local-model-load-failed', { model: 'tiny.gguf', detail: 'not a GGUF file: bad magic' }],
    ]);
    // The English message, which /v1 and the English page read, is as it was.
    expect(events.slice(1).map((e) => e.type === 'llm-retry' && e.error.message)).toEqual(
      old.map((e) => e.error.message),
    );
    for (const e of events) expect(AgentEventSchema.safeParse(e).success).toBe(true);
  });
});

describe('upgradeRunLog: a ReAct reply that skipped the format, stored as a thought only', () => {
  it('reads as the answer (plainReply, which the page shows as the answer); today’s steps stay as they are', () => {
    const at = { runId: 'r', iteration: 1, t: 5 };
    const old = [
      { ...start, kind: 'react' },
      { ...at, iteration: 0, type: 'text-delta', text: 'Thought: ', part: 'markup' },
      { ...at, type: 'text-delta', text: 'Paris is the capital.', part: 'thought' },
      { ...at, type: 'react-step', thought: 'Paris is the capital.' },
      {
        ...at,
        type: 'run-end',
        reason: 'answered',
        llmCalls: 1,
        toolCalls: 0,
        usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
        durationMs: 6,
      },
    ];
    const upgraded = upgradeRunLog(old);
    for (const e of upgraded) expect(() => AgentEventSchema.parse(e)).not.toThrow();
    expect(upgraded[3]).toEqual({
      ...at,
      type: 'react-step',
      thought: '',
      finalAnswer: 'Paris is the capital.',
      plainReply: true,
    });
    // A step with a tool call or a Final Answer is today's.
    const today = [
      { ...start, kind: 'react' },
      { ...at, type: 'react-step', thought: 'Look.', action: 'calculator', actionInput: '{}', observation: '4' },
      { ...at, iteration: 2, type: 'react-step', thought: 'Done.', finalAnswer: '4' },
    ];
    expect(upgradeRunLog(today)).toBe(today);
  });
});
