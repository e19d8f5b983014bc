import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI, { APIError } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelServer, type ModelServer } from './server';
import type { Scenario } from '../../lib/protocol/fixture';

let server: ModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(scenario?: Scenario): Promise<{ s: ModelServer; client: OpenAI }> {
  server = await createModelServer({ scenario });
  return { s: server, client: new OpenAI({ baseURL: server.url, apiKey: 'x', maxRetries: 0 }) };
}

const USER = [{ role: 'user' as const, content: 'hi' }];

async function collect(
  client: OpenAI,
  extra: Partial<OpenAI.Chat.ChatCompletionCreateParamsStreaming> = {},
): Promise<ChatCompletionChunk[]> {
  const stream = await client.chat.completions.create({ model: 'm', messages: USER, stream: true, ...extra });
  const chunks: ChatCompletionChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

function contentOf(chunks: ChatCompletionChunk[]): string {
  return chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
}

function finishOf(chunks: ChatCompletionChunk[]): string | null | undefined {
  return chunks.map((c) => c.choices[0]?.finish_reason).find((f) => f);
}

async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('streaming', () => {
  it('streams text in several chunks shaped like OpenAI chunks', async () => {
    const text = 'Hello there, this is a streamed answer.';
    const { client } = await start({ replies: [{ content: text, chunkSize: 5 }] });
    const chunks = await collect(client);

    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    const contentDeltas = chunks.filter((c) => c.choices[0]?.delta.content);
    expect(contentDeltas.length).toBe(Math.ceil(text.length / 5));
    expect(contentOf(chunks)).toBe(text);
    expect(finishOf(chunks)).toBe('stop');
    const last = chunks.at(-1);
    expect(last?.choices[0]?.delta).toEqual({});
    for (const c of chunks) {
      expect(c.object).toBe('chat.completion.chunk');
      expect(c.model).toBe('m');
      expect(c.id).toBe(chunks[0]?.id);
    }
  });

  it('splits tool-call arguments across several deltas for parallel calls that reassemble by index', async () => {
    const a = JSON.stringify({ city: 'Paris', unit: 'c' });
    const b = JSON.stringify({ a: 2, b: 3 });
    const { client } = await start({
      replies: [
        {
          content: 'Let me check.',
          toolCalls: [
            { id: 'call_abc', name: 'get_weather', arguments: a },
            { name: 'add', arguments: b },
          ],
          chunkSize: 100,
        },
      ],
    });
    const chunks = await collect(client, { tools: [{ type: 'function', function: { name: 'get_weather' } }] });

    const calls = new Map<number, { id?: string; name?: string; args: string; argDeltas: number }>();
    for (const c of chunks) {
      for (const tc of c.choices[0]?.delta.tool_calls ?? []) {
        const cur = calls.get(tc.index) ?? { args: '', argDeltas: 0 };
        if (tc.id) cur.id = tc.id;
        if (tc.function?.name) cur.name = tc.function.name;
        if (tc.function?.arguments) {
          cur.args += tc.function.arguments;
          cur.argDeltas++;
        }
        calls.set(tc.index, cur);
      }
    }
    expect([...calls.keys()]).toEqual([0, 1]);
    expect(calls.get(0)).toMatchObject({ id: 'call_abc', name: 'get_weather', args: a });
    expect(calls.get(1)?.name).toBe('add');
    expect(calls.get(1)?.id).toMatch(/^call_[A-Za-z0-9]{8,}$/);
    expect(JSON.parse(calls.get(1)?.args ?? '')).toEqual({ a: 2, b: 3 });
    expect(calls.get(0)?.argDeltas).toBeGreaterThanOrEqual(3);
    expect(calls.get(1)?.argDeltas).toBeGreaterThanOrEqual(3);
    expect(contentOf(chunks)).toBe('Let me check.');
    expect(finishOf(chunks)).toBe('tool_calls');
  });

  it('sends reasoning_content deltas before the content', async () => {
    const { client } = await start({
      replies: [{ reasoning: 'I should greet them back.', content: 'Hi!', chunkSize: 4 }],
    });
    const chunks = await collect(client);
    const reasoningDeltas = chunks
      .map((c) => (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content)
      .filter((r): r is string => typeof r === 'string');
    expect(reasoningDeltas.length).toBeGreaterThan(1);
    expect(reasoningDeltas.join('')).toBe('I should greet them back.');
    const firstContent = chunks.findIndex((c) => c.choices[0]?.delta.content);
    const lastReasoning = chunks.findLastIndex(
      (c) => (c.choices[0]?.delta as { reasoning_content?: string }).reasoning_content,
    );
    expect(lastReasoning).toBeLessThan(firstContent);
  });

  it('cuts content before the first stop word and drops tool calls after it', async () => {
    const react = 'Thought: look it up\nAction: search\nAction Input: {"q":"x"}\nObservation: made up';
    const { client } = await start({
      replies: [{ content: react, toolCalls: [{ name: 'search', arguments: '{}' }] }, { content: 'one ✿RESULT✿ two' }],
    });
    const chunks = await collect(client, { stop: ['Observation:', '\nNever'] });
    expect(contentOf(chunks)).toBe('Thought: look it up\nAction: search\nAction Input: {"q":"x"}\n');
    expect(chunks.some((c) => c.choices[0]?.delta.tool_calls)).toBe(false);
    expect(finishOf(chunks)).toBe('stop');

    const second = await collect(client, { stop: '✿RESULT✿' });
    expect(contentOf(second)).toBe('one ');
  });

  it('sends a usage chunk only when include_usage is requested', async () => {
    const { client } = await start({
      fallback: { content: 'abc', usage: { prompt_tokens: 11, completion_tokens: 3 } },
    });
    const withUsage = await collect(client, { stream_options: { include_usage: true } });
    const last = withUsage.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({ prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 });

    const without = await collect(client);
    expect(without.some((c) => c.usage)).toBe(false);
    expect(without.at(-1)?.choices.length).toBe(1);
  });

  it('estimates usage when the script gives none', async () => {
    const { client } = await start({ fallback: { content: 'a fairly long answer with words' } });
    const chunks = await collect(client, { stream_options: { include_usage: true } });
    const usage = chunks.at(-1)?.usage;
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    expect(usage?.completion_tokens).toBeGreaterThan(1);
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
  });

  it('waits delayMs between chunks', async () => {
    const { client } = await start({ replies: [{ content: 'abcdef', chunkSize: 2, delayMs: 40 }] });
    const t0 = Date.now();
    const chunks = await collect(client);
    // role chunk + 3 content chunks + finish chunk = 5 chunks, so 4 gaps of 40ms.
    expect(chunks.length).toBe(5);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
  });

  it('waits ttftMs before the first chunk, after the headers', async () => {
    const { client } = await start({ replies: [{ content: 'abcdef', chunkSize: 2, ttftMs: 120 }] });
    const t0 = Date.now();
    const stream = await client.chat.completions.create({ model: 'm', messages: USER, stream: true });
    const headersAt = Date.now() - t0;
    const arrivals: number[] = [];
    for await (const _chunk of stream) arrivals.push(Date.now() - t0);
    expect(headersAt).toBeLessThan(arrivals[0]!);
    expect(arrivals[0]).toBeGreaterThanOrEqual(115);
  });

  it('stamps each content delta with the epoch time it was written, when stampChunks is set', async () => {
    const { client } = await start({ replies: [{ content: 'abcdef', chunkSize: 3, delayMs: 30, stampChunks: true }] });
    const before = performance.timeOrigin + performance.now();
    const pieces = (await collect(client)).map((c) => c.choices[0]?.delta.content ?? '').filter(Boolean);
    const after = performance.timeOrigin + performance.now();
    expect(pieces.map((p) => p.replace(/⟦t=[\d.]+⟧$/, ''))).toEqual(['abc', 'def']);
    const stamps = pieces.map((p) => Number(/⟦t=([\d.]+)⟧$/.exec(p)![1]));
    expect(stamps[0]).toBeGreaterThanOrEqual(before);
    expect(stamps[1]! - stamps[0]!).toBeGreaterThanOrEqual(29);
    expect(stamps[1]).toBeLessThanOrEqual(after);
  });
});

describe('faults', () => {
  it('answers 429 with a Retry-After header visible on the SDK error', async () => {
    const { client } = await start({ replies: [{ fault: { kind: 'status', status: 429, retryAfter: 7 } }] });
    const err = await catchError(client.chat.completions.create({ model: 'm', messages: USER }));
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const e = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(e.status).toBe(429);
    expect(e.headers.get('retry-after')).toBe('7');
    expect(e.code).toBe('rate_limit_exceeded');
  });

  it('answers 500 with an OpenAI-style error body, also for streaming requests', async () => {
    const { client } = await start({
      replies: [
        { fault: { kind: 'status', status: 500 } },
        {
          fault: {
            kind: 'status',
            status: 503,
            body: { error: { message: 'overloaded', type: 'server_error', code: 'busy' } },
          },
        },
      ],
    });
    const err = await catchError(collect(client));
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect((err as APIError).status).toBe(500);
    expect((err as APIError).type).toBe('server_error');

    const custom = (await catchError(client.chat.completions.create({ model: 'm', messages: USER }))) as APIError;
    expect(custom.status).toBe(503);
    expect(custom.message).toContain('overloaded');
    expect(custom.code).toBe('busy');
  });

  it('cuts the TCP connection mid-stream so the SDK never sees a finish_reason', async () => {
    const { client } = await start({
      replies: [{ content: 'abcdefghijklmnop', chunkSize: 2, fault: { kind: 'cut', afterChunks: 3 } }],
    });
    const stream = await client.chat.completions.create({ model: 'm', messages: USER, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    let threw: unknown;
    try {
      for await (const c of stream) chunks.push(c);
    } catch (err) {
      threw = err;
    }
    expect(chunks.length).toBe(3);
    expect(contentOf(chunks)).toBe('abcd');
    expect(finishOf(chunks)).toBeUndefined();
    expect(threw).toBeDefined();
  });

  it('stalls silently for ms before the next chunk, then finishes normally', async () => {
    const { client } = await start({
      replies: [{ content: 'abcdef', chunkSize: 2, fault: { kind: 'stall', afterChunks: 2, ms: 400 } }],
    });
    const stream = await client.chat.completions.create({ model: 'm', messages: USER, stream: true });
    const times: number[] = [];
    const chunks: ChatCompletionChunk[] = [];
    for await (const c of stream) {
      chunks.push(c);
      times.push(Date.now());
    }
    const gap = (times[2] ?? 0) - (times[1] ?? 0);
    expect(gap).toBeGreaterThanOrEqual(350);
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeLessThan(200);
    expect(contentOf(chunks)).toBe('abcdef');
    expect(finishOf(chunks)).toBe('stop');
  });

  it('sends an error event mid-stream that the SDK raises as an APIError', async () => {
    const { client } = await start({
      replies: [
        {
          content: 'partial answer here',
          chunkSize: 4,
          fault: { kind: 'stream-error', afterChunks: 2, error: { message: 'engine crashed', code: 'boom' } },
        },
      ],
    });
    const stream = await client.chat.completions.create({ model: 'm', messages: USER, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    const err = await catchError(
      (async () => {
        for await (const c of stream) chunks.push(c);
      })(),
    );
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toContain('engine crashed');
    expect(chunks.length).toBe(2);
  });

  it('answers 500 with code script_exhausted when nothing is left', async () => {
    const { client } = await start({ replies: [{ content: 'only one' }] });
    await client.chat.completions.create({ model: 'm', messages: USER });
    const err = (await catchError(client.chat.completions.create({ model: 'm', messages: USER }))) as APIError;
    expect(err.status).toBe(500);
    expect(err.code).toBe('script_exhausted');
    expect(err.message).toContain('exhausted');
  });

  it('close() returns promptly while a stalled stream is open', async () => {
    const { s, client } = await start({
      replies: [{ content: 'abc', fault: { kind: 'stall', afterChunks: 1, ms: 30_000 } }],
    });
    const stream = await client.chat.completions.create({ model: 'm', messages: USER, stream: true });
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    const pending = it.next().catch((e: unknown) => e);
    const t0 = Date.now();
    await s.close();
    server = undefined;
    expect(Date.now() - t0).toBeLessThan(1000);
    const outcome = await pending;
    // The client either errors or sees the stream end; it must not hang for the 30s stall.
    expect(outcome instanceof Error || (outcome as IteratorResult<unknown>).done === true).toBe(true);
  });
  it('streams tool-call arguments without end until the client leaves, and records that it left', async () => {
    const { s, client } = await start({
      replies: [
        { toolCalls: [{ id: 'c1', name: 'f', arguments: '{"a": "' }], endless: 'arguments', delayMs: 5, chunkSize: 3 },
      ],
    });
    const stream = await client.chat.completions.create({ model: 'm', messages: USER, stream: true });
    let args = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      args += delta?.tool_calls?.[0]?.function?.arguments ?? '';
      finish ??= chunk.choices[0]?.finish_reason;
      if (args.length > 60) break; // leaving the loop aborts the request
    }
    expect(args.startsWith('{"a": "xxx')).toBe(true);
    expect(finish).toBeNull();
    for (let i = 0; i < 50 && s.requests[0]?.closedAt === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    expect(s.requests[0]).toMatchObject({ finished: false });
    expect(s.requests[0]?.closedAt).toBeGreaterThanOrEqual(s.requests[0]!.at);
  });

  it('records a whole answer as finished', async () => {
    const { s, client } = await start({ replies: [{ content: 'done' }] });
    await collect(client);
    for (let i = 0; i < 50 && s.requests[0]?.closedAt === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    expect(s.requests[0]).toMatchObject({ finished: true });
  });
});

describe('non-streaming', () => {
  it('returns one chat.completion with content, reasoning_content, tool_calls and usage', async () => {
    const { client } = await start({
      replies: [
        {
          content: 'Sure.',
          reasoning: 'think first',
          toolCalls: [{ id: 'call_1', name: 'calc', arguments: '{"x":1}' }],
        },
        { content: 'stop here STOP not this' },
      ],
    });
    const res = await client.chat.completions.create({ model: 'qwen', messages: USER });
    expect(res.object).toBe('chat.completion');
    expect(res.model).toBe('qwen');
    const choice = res.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('Sure.');
    expect((choice?.message as { reasoning_content?: string }).reasoning_content).toBe('think first');
    expect(choice?.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'calc', arguments: '{"x":1}' } },
    ]);
    expect(res.usage?.total_tokens).toBe((res.usage?.prompt_tokens ?? 0) + (res.usage?.completion_tokens ?? 0));

    const cut = await client.chat.completions.create({ model: 'qwen', messages: USER, stop: ['STOP'] });
    expect(cut.choices[0]?.message.content).toBe('stop here ');
    expect(cut.choices[0]?.finish_reason).toBe('stop');
  });
});

describe('scenarios', () => {
  it('plays replies in order, then rules (arrays advance and the last repeats), then the echo fallback', async () => {
    const { client } = await start({
      replies: [{ content: 'first' }],
      rules: [
        { when: { lastUserIncludes: 'weather', hasTools: true }, reply: [{ content: 'w1' }, { content: 'w2' }] },
        { when: { anyIncludes: 'SYSTEM-MARK' }, reply: { content: 'marked' } },
      ],
      fallback: 'echo',
    });
    const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather' } }];
    const ask = async (messages: OpenAI.Chat.ChatCompletionMessageParam[], withTools = false) =>
      (await client.chat.completions.create({ model: 'm', messages, ...(withTools ? { tools } : {}) })).choices[0]
        ?.message.content;

    expect(await ask([{ role: 'user', content: 'weather?' }], true)).toBe('first');
    expect(await ask([{ role: 'user', content: 'weather?' }], true)).toBe('w1');
    expect(await ask([{ role: 'user', content: 'weather?' }])).toBe('weather?');
    expect(await ask([{ role: 'user', content: 'weather?' }], true)).toBe('w2');
    expect(await ask([{ role: 'user', content: 'weather?' }], true)).toBe('w2');
    expect(
      await ask([
        { role: 'system', content: 'SYSTEM-MARK' },
        { role: 'user', content: 'x' },
      ]),
    ).toBe('marked');
    expect(
      await ask([
        { role: 'user', content: 'old' },
        { role: 'assistant', content: 'a' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'echo ' },
            { type: 'text', text: 'me' },
          ],
        },
      ]),
    ).toBe('echo me');
  });

  it('calls a responder function with the request and its index', async () => {
    const { s, client } = await start();
    s.setScenario((req, index) => ({ content: `#${index} saw ${req.body.messages.length} messages` }));
    const a = await client.chat.completions.create({ model: 'm', messages: USER });
    const b = await client.chat.completions.create({
      model: 'm',
      messages: [...USER, { role: 'assistant', content: 'x' }, ...USER],
    });
    expect(a.choices[0]?.message.content).toBe('#0 saw 1 messages');
    expect(b.choices[0]?.message.content).toBe('#1 saw 3 messages');
  });

  it('echoes the last user message by default', async () => {
    const { client } = await start();
    const res = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'ping 42' }] });
    expect(res.choices[0]?.message.content).toBe('ping 42');
  });

  it('records every request in order, faulted ones included, and reset() clears and rewinds', async () => {
    const { s, client } = await start({ replies: [{ fault: { kind: 'status', status: 429 } }, { content: 'ok' }] });
    await catchError(client.chat.completions.create({ model: 'm', messages: USER, temperature: 0.5 }));
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'second' }], stop: ['X'] });
    expect(s.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/chat/completions'],
    ]);
    expect(s.requests[0]?.body.temperature).toBe(0.5);
    expect(s.requests[1]?.body.messages[0].content).toBe('second');
    expect(s.requests[1]?.body.stop).toEqual(['X']);
    expect(s.requests[0]?.headers.authorization).toBe('Bearer x');
    expect(s.requests[0]?.at).toBeLessThanOrEqual(s.requests[1]?.at ?? 0);

    const held = s.requests;
    s.reset();
    expect(held.length).toBe(0);
    const err = (await catchError(client.chat.completions.create({ model: 'm', messages: USER }))) as APIError;
    expect(err.status).toBe(429);
  });
});

describe('other endpoints', () => {
  it('lists the model, answers /health, and 404s unknown paths with an OpenAI-style error', async () => {
    server = await createModelServer({ model: 'qwen3-test' });
    const client = new OpenAI({ baseURL: server.url, apiKey: 'x', maxRetries: 0 });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['qwen3-test']);

    const health = await fetch(server.url.replace(/\/v1$/, '/health'));
    expect(health.status).toBe(200);

    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as { error: { message: string; type: string } };
    expect(body.error.message).toContain('/v1/nope');
    expect(body.error.type).toBe('invalid_request_error');

    const bad = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{not json' });
    expect(bad.status).toBe(400);
    expect(server.requests.at(-1)?.body).toBe('{not json');

    // Mounted below a prefix, as DashScope's compatible mode is: the same endpoint.
    const prefixed = new OpenAI({
      baseURL: server.url.replace(/\/v1$/, '/compatible-mode/v1'),
      apiKey: 'x',
      maxRetries: 0,
    });
    const reply = await prefixed.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.choices[0]!.message.content).toBe('hi');
    expect(server.requests.at(-1)!.path).toBe('/compatible-mode/v1/chat/completions');
  });
});

describe('CLI', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));

  async function runCli(args: string[], fn: (url: string) => Promise<void>): Promise<void> {
    const child = spawn('npx', ['tsx', 'scripts/model-server/main.ts', '--port', '0', ...args], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    try {
      const lines = createInterface({ input: child.stdout });
      const first = await new Promise<string>((ok, fail) => {
        lines.once('line', ok);
        child.once('exit', (code) => fail(new Error(`CLI exited early with ${code}`)));
      });
      const match = /^listening (http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(first);
      expect(match).not.toBeNull();
      await fn(match?.[1] ?? '');
    } finally {
      // npx and tsx each add a process; signal the whole group this test created.
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
  }

  it('prints its URL first and echoes by default', async () => {
    await runCli([], async (url) => {
      const client = new OpenAI({ baseURL: url, apiKey: 'x', maxRetries: 0 });
      const res = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'hello cli' }],
      });
      expect(res.choices[0]?.message.content).toBe('hello cli');
    });
  });

  it('loads a scenario file and a model name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-server-'));
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify({ replies: [{ content: 'from file' }] }));
    await runCli(['--scenario', file, '--model', 'cli-model'], async (url) => {
      const client = new OpenAI({ baseURL: url, apiKey: 'x', maxRetries: 0 });
      expect((await client.models.list()).data[0]?.id).toBe('cli-model');
      const res = await client.chat.completions.create({ model: 'm', messages: USER });
      expect(res.choices[0]?.message.content).toBe('from file');
      const err = (await catchError(client.chat.completions.create({ model: 'm', messages: USER }))) as APIError;
      expect(err.code).toBe('script_exhausted');
    });
  });
});

describe('control endpoints (for tests in another process)', () => {
  it('sets the scenario, lists the model requests, and resets; only when enabled', async () => {
    const controlled = await createModelServer({ control: true });
    const plain = await createModelServer();
    try {
      const base = controlled.url.replace(/\/v1$/, '');
      const put = await fetch(`${base}/_control/scenario`, {
        method: 'PUT',
        body: JSON.stringify({ fallback: { content: 'from control' } }),
      });
      expect(put.status).toBe(200);
      const chat = await fetch(`${controlled.url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect((await chat.json()).choices[0].message.content).toBe('from control');
      const listed = await (await fetch(`${base}/_control/requests`)).json();
      expect(listed.map((r: { path: string }) => r.path)).toEqual(['/v1/chat/completions']);
      await fetch(`${base}/_control/reset`, { method: 'POST' });
      expect(await (await fetch(`${base}/_control/requests`)).json()).toEqual([]);
      const refused = await fetch(`${plain.url.replace(/\/v1$/, '')}/_control/requests`);
      expect(refused.status).toBe(404);
    } finally {
      await controlled.close();
      await plain.close();
    }
  });
});
