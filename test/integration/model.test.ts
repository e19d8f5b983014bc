// OpenAIChatModel over real HTTP against the scripted OpenAI-compatible server.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { ModelServiceError, StreamInterruptedError } from '../../lib/llm/errors';
import { OpenAIChatModel } from '../../lib/llm/openai-model';
import type { GenerateCfg } from '../../lib/llm/model';
import type { FunctionDef } from '../../lib/llm/schema';
import { collectChat } from '../support/run';

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const weather: FunctionDef = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const model = (fncallMode: 'native' | 'nous' | 'qwen' = 'native', generateCfg: GenerateCfg = {}) =>
  new OpenAIChatModel({
    model: 'scripted',
    baseURL: server.url,
    apiKey: 'k',
    fncallMode,
    generateCfg: { retry_base_delay_ms: 10, ...generateCfg },
  });
const user = (content: string) => [{ role: 'user' as const, content }];

describe('streaming', () => {
  it('streams text in several deltas and reports finish reason, usage and time to first token', async () => {
    server.setScenario({
      replies: [
        {
          content: 'The quick brown fox jumps over the lazy dog.',
          chunkSize: 5,
          usage: { prompt_tokens: 12, completion_tokens: 10 },
        },
      ],
    });
    const { events, result, text } = await collectChat(model(), { messages: user('hi') });
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(3);
    expect(text).toBe('The quick brown fox jumps over the lazy dog.');
    expect(result.messages).toEqual([{ role: 'assistant', content: 'The quick brown fox jumps over the lazy dog.' }]);
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toEqual({ promptTokens: 12, completionTokens: 10, totalTokens: 22 });
    expect(result.ttftMs).toBeGreaterThanOrEqual(0);
    expect(result.raw).toBeUndefined(); // the streamed text is the whole story
    expect(server.requests[0]!.body.stream_options).toEqual({ include_usage: true });
  });

  it('assembles native tool calls split across deltas (parallel calls) and keeps reasoning_content as its own message', async () => {
    server.setScenario({
      replies: [
        {
          reasoning: 'I should look up both cities.',
          content: 'Checking.',
          toolCalls: [
            { id: 'call_a', name: 'get_weather', arguments: '{"city": "Paris"}' },
            { id: 'call_b', name: 'get_weather', arguments: '{"city": "北京"}' },
          ],
        },
      ],
    });
    const { result, reasoning } = await collectChat(model(), { messages: user('weather?'), functions: [weather] });
    expect(reasoning).toBe('I should look up both cities.');
    expect(result.messages).toEqual([
      { role: 'assistant', content: '', reasoning_content: 'I should look up both cities.' },
      { role: 'assistant', content: 'Checking.' },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_weather', arguments: '{"city": "Paris"}' },
        extra: { function_id: 'call_a' },
      },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_weather', arguments: '{"city": "北京"}' },
        extra: { function_id: 'call_b' },
      },
    ]);
    expect(result.finishReason).toBe('tool_calls');
    const body = server.requests[0]!.body;
    expect(body.tools).toEqual([{ type: 'function', function: weather }]);
  });

  it('turns <think> in content into reasoning', async () => {
    server.setScenario({ replies: [{ content: '<think>2 and 2 make 4</think>It is 4.', chunkSize: 3 }] });
    const { result, text, reasoning } = await collectChat(model(), { messages: user('2+2?') });
    expect(reasoning).toBe('2 and 2 make 4');
    expect(text).toBe('It is 4.');
    expect(result.messages[0]).toEqual({ role: 'assistant', content: '', reasoning_content: '2 and 2 make 4' });
    expect(result.raw?.content).toBe('<think>2 and 2 make 4</think>It is 4.');
  });

  it('sends stop words and also enforces them on the client (beyond the 4 the API accepts)', async () => {
    const stop = ['A1', 'B2', 'C3', 'D4', 'STOPHERE'];
    server.setScenario({ replies: [{ content: 'keep this STOPHERE drop this', chunkSize: 4 }] });
    const { result, text } = await collectChat(model('native', { stop }), { messages: user('x') });
    expect(server.requests[0]!.body.stop).toEqual(['A1', 'B2', 'C3', 'D4']);
    expect(text).toBe('keep this ');
    expect(result.finishReason).toBe('stop');
  });

  it('adds a random seed in [0, 2^30] unless one is given', async () => {
    server.setScenario({ fallback: 'echo' });
    await collectChat(model(), { messages: user('a') });
    await collectChat(model('native', { seed: 7 }), { messages: user('b') });
    const [first, second] = server.requests.map((r) => r.body.seed);
    expect(Number.isInteger(first) && first >= 0 && first <= 2 ** 30).toBe(true);
    expect(second).toBe(7);
  });

  it('forwards unknown generate_cfg keys as request parameters and keeps local ones out', async () => {
    server.setScenario({ fallback: 'echo' });
    await collectChat(model('native', { temperature: 0.2, top_k: 20, max_input_tokens: 1000, max_retries: 0 }), {
      messages: user('a'),
    });
    const body = server.requests[0]!.body;
    expect(body.temperature).toBe(0.2);
    expect(body.top_k).toBe(20);
    expect(body).not.toHaveProperty('max_input_tokens');
    expect(body).not.toHaveProperty('max_retries');
  });

  it('works without streaming (stream: false) for servers that cannot stream tool calls', async () => {
    server.setScenario({
      replies: [{ content: 'ok', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] }],
    });
    const { result, text } = await collectChat(model('native', { stream: false }), {
      messages: user('x'),
      functions: [weather],
    });
    expect(server.requests[0]!.body.stream).toBeUndefined();
    expect(text).toBe('ok');
    expect(result.messages.at(-1)).toEqual({
      role: 'assistant',
      content: '',
      function_call: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
      extra: { function_id: 'c1' },
    });
  });
});

describe('function_choice', () => {
  it('rejects a name that is not a declared function', async () => {
    await expect(
      collectChat(model('native', { function_choice: 'nope' }), { messages: user('x'), functions: [weather] }),
    ).rejects.toThrow(/function_choice must be 'auto', 'none', 'required' or one of the functions/);
    expect(server.requests).toHaveLength(0);
  });

  it("forces a named tool in native mode, and 'none' offers no tools while past calls stay tool_calls (use_raw_api)", async () => {
    server.setScenario({ fallback: 'echo' });
    await collectChat(model('native', { function_choice: 'get_weather' }), {
      messages: user('x'),
      functions: [weather],
    });
    expect(server.requests[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
    await collectChat(model('native', { function_choice: 'none' }), {
      functions: [weather],
      messages: [
        { role: 'user', content: 'weather in Paris?' },
        { role: 'assistant', content: '', function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { role: 'function', name: 'get_weather', content: 'sunny' },
        { role: 'user', content: 'and now?' },
      ],
    });
    const body = server.requests[1]!.body;
    expect(body.tools).toBeUndefined();
    expect(body.tool_choice).toBeUndefined();
    // Upstream's raw API path leaves history alone: the call and its result go back in the wire format.
    expect(body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: '1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: '1', content: 'sunny' },
      { role: 'user', content: 'and now?' },
    ]);
  });
});

describe('prompt formats', () => {
  it('nous: tools go in the system prompt, and <tool_call> blocks are parsed out of the stream, never shown as text', async () => {
    server.setScenario({
      replies: [
        {
          content:
            'Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>',
          chunkSize: 3,
        },
      ],
    });
    const { result, text } = await collectChat(model('nous'), { messages: user('weather?'), functions: [weather] });
    expect(text).toBe('Let me check.\n');
    expect(result.messages.filter((m) => m.function_call)).toEqual([
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_weather', arguments: '{"city": "Paris"}' },
        extra: { function_id: '1' },
      },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_weather', arguments: '{"city": "Rome"}' },
        extra: { function_id: '2' },
      },
    ]);
    const body = server.requests[0]!.body;
    expect(body.tools).toBeUndefined();
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content).toContain('<tools>\n{"type": "function", "function": {"name": "get_weather"');
    expect(result.raw?.content).toContain('<tool_call>');
  });

  it('qwen: adds ✿RESULT✿/✿RETURN✿ stop words and parses ✿FUNCTION✿/✿ARGS✿', async () => {
    server.setScenario({
      replies: [
        { content: 'Sure.\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Oslo"}\n✿RESULT✿: made up', chunkSize: 4 },
      ],
    });
    const { result, text } = await collectChat(model('qwen'), { messages: user('weather?'), functions: [weather] });
    expect(server.requests[0]!.body.stop).toEqual(['✿RESULT✿', '✿RETURN✿']);
    expect(text.trim()).toBe('Sure.');
    const calls = result.messages.filter((m) => m.function_call);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.function_call).toEqual({ name: 'get_weather', arguments: '{"city": "Oslo"}' });
    expect(calls[0]!.extra?.function_id).toBe('1'); // upstream leaves extra unset here and then crashes
  });
});

describe('failures', () => {
  it('retries 429 honouring Retry-After, and reports each retry', async () => {
    server.setScenario({ replies: [{ fault: { kind: 'status', status: 429, retryAfter: 0.3 } }, { content: 'done' }] });
    const started = Date.now();
    const { events, text } = await collectChat(model(), { messages: user('x') });
    expect(text).toBe('done');
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ type: 'retry', attempt: 1, delayMs: 300, error: { status: 429 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.requests).toHaveLength(2);
  });

  it('retries 500 with backoff and gives up after max_retries with the server message', async () => {
    server.setScenario({
      fallback: {
        fault: { kind: 'status', status: 500, body: { error: { message: 'GPU on fire', type: 'server_error' } } },
      },
    });
    const err = await collectChat(model('native', { max_retries: 2 }), { messages: user('x') }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelServiceError);
    expect(err.message).toMatch(/500.*GPU on fire/);
    expect(server.requests).toHaveLength(3);
  });

  it('never retries a 400', async () => {
    server.setScenario({
      fallback: {
        fault: {
          kind: 'status',
          status: 400,
          body: { error: { message: 'bad field', type: 'invalid_request_error' } },
        },
      },
    });
    const err = await collectChat(model('native', { max_retries: 3 }), { messages: user('x') }).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.message).toContain('bad field');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a stream cut before any output, and reports a cut after output as interrupted (never a silent success)', async () => {
    server.setScenario({
      replies: [{ content: 'aaaa', fault: { kind: 'cut', afterChunks: 0 } }, { content: 'second try' }],
    });
    expect((await collectChat(model(), { messages: user('x') })).text).toBe('second try');

    server.setScenario({
      replies: [{ content: 'partial answer that never ends', chunkSize: 4, fault: { kind: 'cut', afterChunks: 3 } }],
    });
    const err = await collectChat(model(), { messages: user('x') }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelServiceError);
    expect(err.message).toMatch(/ended the stream before finishing|connection/i);
  });

  it('an error event inside the stream becomes a clear error', async () => {
    server.setScenario({
      fallback: {
        content: 'abcdefgh',
        chunkSize: 2,
        fault: {
          kind: 'stream-error',
          afterChunks: 2,
          error: { message: 'context window exceeded', type: 'invalid_request_error' },
        },
      },
    });
    const err = await collectChat(model(), { messages: user('x') }).catch((e) => e);
    expect(err.message).toContain('context window exceeded');
  });

  it('times out an idle stream', async () => {
    server.setScenario({
      fallback: { content: 'abcdefgh', chunkSize: 2, fault: { kind: 'stall', afterChunks: 2, ms: 5000 } },
    });
    const started = Date.now();
    const err = await collectChat(model('native', { idle_timeout_ms: 300, max_retries: 0 }), {
      messages: user('x'),
    }).catch((e) => e);
    expect(err.message).toMatch(/timed out: the stream was idle for 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a request timeout covers a server that never answers', async () => {
    server.setScenario({ fallback: { content: 'abc', fault: { kind: 'stall', afterChunks: 0, ms: 5000 } } });
    const err = await collectChat(model('native', { request_timeout_ms: 300, idle_timeout_ms: 300, max_retries: 1 }), {
      messages: user('x'),
    }).catch((e) => e);
    expect(err.message).toMatch(/timed out/);
    expect(server.requests).toHaveLength(2); // a timeout is retried like a network error
  });

  it('the abort signal cancels the HTTP request', async () => {
    server.setScenario({ fallback: { content: 'x'.repeat(400), chunkSize: 1, delayMs: 10 } });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    const started = Date.now();
    const err = await collectChat(model(), { messages: user('x'), signal: ac.signal }).catch((e) => e);
    expect(err.name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('leaves no listener on the run signal after each call (a run makes many calls on one signal)', async () => {
    server.setScenario({ fallback: { content: 'ok' } });
    const ac = new AbortController();
    const m = model();
    for (let i = 0; i < 12; i++) await collectChat(m, { messages: user(`call ${i}`), signal: ac.signal });
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
  });

  it('reports a dead server clearly after retrying', async () => {
    const dead = new OpenAIChatModel({
      model: 'm',
      baseURL: 'http://127.0.0.1:9/v1',
      generateCfg: { max_retries: 1, retry_base_delay_ms: 10 },
    });
    const err = await collectChat(dead, { messages: user('x') }).catch((e) => e);
    expect(err).toBeInstanceOf(ModelServiceError);
    expect(err.message).toMatch(/Cannot reach the model server|connection/i);
  });

  it('names a port fetch refuses (6000, a "bad port"), as Test connection does, and does not retry it', async () => {
    // fetch refuses port 6000 before connecting, so nothing needs to listen there.
    const refused = new OpenAIChatModel({
      model: 'm',
      baseURL: 'http://127.0.0.1:6000/v1',
      generateCfg: { max_retries: 2, retry_base_delay_ms: 10 },
    });
    const events: string[] = [];
    const err = await refused.chat({ messages: user('x') }, (e) => events.push(e.type)).catch((e) => e);
    expect(err).toBeInstanceOf(ModelServiceError);
    expect(err.message).toBe(
      'Cannot reach the model server: fetch refuses to connect to port 6000 (a port browsers block too): run the server on another port.',
    );
    expect(err.retryable).toBe(false);
    expect(events).not.toContain('retry');
  });
});

describe('input', () => {
  it('truncates the input to max_input_tokens and says what it dropped', async () => {
    server.setScenario({ fallback: 'echo' });
    const long = 'word '.repeat(3000);
    const { events } = await collectChat(model('native', { max_input_tokens: 500 }), {
      messages: [
        { role: 'user', content: long },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'short question' },
      ],
    });
    const req = events.find((e) => e.type === 'request');
    expect(req?.type === 'request' && req.truncation?.notes.length).toBeTruthy();
    expect(JSON.stringify(server.requests[0]!.body.messages)).not.toContain(long);
    expect(server.requests[0]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'short question' });
  });

  it('tells a text-only model about uploads with a note instead of sending the files', async () => {
    server.setScenario({ fallback: 'echo' });
    await collectChat(model(), {
      messages: [{ role: 'user', content: [{ text: 'Summarise this' }, { file: '/data/files/9f2c/report.pdf' }] }],
    });
    expect(server.requests[0]!.body.messages).toEqual([
      { role: 'user', content: '(Uploaded [file](report.pdf)) Summarise this' },
    ]);
  });

  it('rejects a conversation that does not start with a user message as a 400-coded error, without a request', async () => {
    const err = await collectChat(model(), {
      messages: [
        { role: 'assistant', content: 'hi' },
        { role: 'user', content: 'x' },
      ],
    }).catch((e) => e);
    expect(err.status ?? err.code).toBeTruthy();
    expect(String(err.status ?? err.code)).toBe('400');
    expect(StreamInterruptedError).toBeDefined();
    expect(server.requests).toHaveLength(0);
  });
});
