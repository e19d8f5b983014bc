// Against an OpenAI-compatible server this project did not write: @dwmkerr/mock-llm (an Express mock server from
// npm), run as its own process. It streams content only, ignores stop words and sends stream errors as 200 + an
// error payload, so it exercises our client-side stop enforcement and error handling as a foreign server would.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FnCallAgent, ReActChat } from '../../lib/agent';
import { collectEvents, ofType } from '../support/run';
import { createChatModel } from '../../lib/llm';

const CHAT = '/v1/chat/completions';
let mock: ChildProcess;
let mockPort: number;
let proxy: Server;
let requestCount = 0;
let baseURL: string;

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

async function startMock(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mock-llm-'));
  const config = path.join(dir, 'mock-llm.yaml');
  writeFileSync(config, JSON.stringify({ streaming: { chunkSize: 20, chunkIntervalMs: 1 }, rules: [] }));
  mock = spawn(process.execPath, [require.resolve('@dwmkerr/mock-llm/dist/main.js'), '--config', config], {
    env: { ...process.env, PORT: String(mockPort), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${mockPort}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('mock-llm did not start');
}

/** Replace the mock's rules (its runtime config API); resets its sequence counters. */
async function rules(list: unknown[], streaming = { chunkSize: 20, chunkIntervalMs: 1 }): Promise<void> {
  await fetch(`http://127.0.0.1:${mockPort}/config`, { method: 'DELETE' });
  const res = await fetch(`http://127.0.0.1:${mockPort}/config`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ streaming, rules: list }),
  });
  expect(res.ok).toBe(true);
}

const completion = (message: Record<string, unknown>, finish = 'stop') =>
  JSON.stringify({
    id: 'chatcmpl-x',
    object: 'chat.completion',
    created: 1,
    model: 'mock',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  });
const rule = (content: string, extra: Record<string, unknown> = {}, status = 200) => ({
  path: CHAT,
  method: 'POST',
  ...extra,
  response: { status, content },
});
const apiError = (message: string, code: string, type = 'server_error') =>
  JSON.stringify({ error: { message, type, code } });

beforeAll(async () => {
  mockPort = await freePort();
  await startMock();
  // A counting pass-through proxy: how many requests really reached the server.
  proxy = createServer((req, res) => {
    if (req.url?.endsWith('/chat/completions')) requestCount++;
    const upstream = httpRequest(
      { host: '127.0.0.1', port: mockPort, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        up.on('error', () => res.destroy());
        up.on('aborted', () => res.destroy());
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }).listen(0, '127.0.0.1');
  await new Promise((r) => proxy.once('listening', r));
  baseURL = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
}, 30_000);
afterAll(async () => {
  mock?.kill();
  await new Promise((r) => proxy.close(r));
});
beforeEach(() => {
  requestCount = 0;
});

const llm = (fncallMode: 'native' | 'nous' | 'qwen', generateCfg = {}) =>
  createChatModel({
    model: 'mock',
    baseURL,
    apiKey: 'k',
    fncallMode,
    generateCfg: { retry_base_delay_ms: 20, max_retries: 2, ...generateCfg },
  });

describe('against @dwmkerr/mock-llm', () => {
  it('nous: a tool call in <tool_call> tags, the result sent back, and an answer', async () => {
    await rules([
      rule(completion({ content: 'NO TOOL RESULT WAS SENT' })),
      rule(
        completion({
          content:
            'Let me compute.\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "6*7"}}\n</tool_call>',
        }),
        { match: "!contains(to_string(body.messages), '<tool_response>')" },
      ),
      rule(completion({ content: 'Six times seven is 42.' }), {
        match: "starts_with(body.messages[-1].content, '<tool_response>') && contains(body.messages[-1].content, '42')",
      }),
    ]);
    const events = await collectEvents(
      new FnCallAgent({ llm: llm('nous'), functionList: ['calculator'] }).runEvents([
        { role: 'user', content: 'What is 6*7?' },
      ]),
    );
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ name: 'calculator', ok: true, content: '42' });
    expect(
      ofType(events, 'text-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Let me compute.\nSix times seven is 42.');
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'answered', llmCalls: 2 });
    expect(requestCount).toBe(2);
  });

  it('native: tool_calls from a non-streaming server (stream: false), result as role tool', async () => {
    await rules([
      rule(completion({ content: 'NO TOOL RESULT WAS SENT' })),
      rule(
        completion(
          {
            content: null,
            tool_calls: [
              { id: 'call_9', type: 'function', function: { name: 'calculator', arguments: '{"expression":"2**10"}' } },
            ],
          },
          'tool_calls',
        ),
        { match: "body.messages[-1].role == 'user'" },
      ),
      rule(completion({ content: '2 to the 10th is 1024.' }), {
        match:
          "body.messages[-1].role == 'tool' && body.messages[-1].tool_call_id == 'call_9' && body.messages[-1].content == '1024'",
      }),
    ]);
    const result = await new FnCallAgent({
      llm: llm('native', { stream: false }),
      functionList: ['calculator'],
    }).runNonStream([{ role: 'user', content: '2^10?' }]);
    expect(result.map((m) => m.content)).toEqual(['', '1024', '2 to the 10th is 1024.']);
  });

  it('ReAct: the server ignores stop words, so the client cuts at "Observation:" itself', async () => {
    await rules([
      rule(completion({ content: 'Final Answer: the observation was used' }), {
        match: "contains(body.messages[-1].content, 'Observation: 1024')",
      }),
      rule(
        completion({
          content:
            'I will compute.\nAction: calculator\nAction Input: {"expression": "2**10"}\nObservation: 999 (made up by the model)\nThought: done\nFinal Answer: 999',
        }),
        { match: "!contains(body.messages[-1].content, 'Observation: 1024')" },
      ),
    ]);
    const events = await collectEvents(
      new ReActChat({ llm: llm('native'), functionList: ['calculator'] }).runEvents([
        { role: 'user', content: '2^10?' },
      ]),
    );
    const transcript = ofType(events, 'text-delta')
      .map((e) => e.text)
      .join('');
    expect(transcript).not.toContain('999');
    expect(transcript).toContain('Observation: 1024\nThought: Final Answer: the observation was used');
    expect(ofType(events, 'llm-end')[0]!.finishReason).toBe('stop');
  });

  it('retries a 429 (non-streaming) and an in-stream rate-limit error, then answers', async () => {
    await rules([
      rule(apiError('Rate limit reached', 'rate_limit_exceeded', 'requests'), { sequence: 0 }, 429),
      rule(completion({ content: 'after the 429' }), { sequence: 1 }),
    ]);
    const a = await collectEvents(
      new FnCallAgent({ llm: llm('native', { stream: false }) }).runEvents([{ role: 'user', content: 'x' }]),
    );
    expect(ofType(a, 'llm-retry')[0]).toMatchObject({ attempt: 1, error: { status: 429 } });
    expect(ofType(a, 'run-end')[0]!.reason).toBe('answered');

    await rules([
      rule(apiError('Rate limit reached', 'rate_limit_exceeded', 'requests'), { sequence: 0 }, 429),
      rule(completion({ content: 'after the stream error' }), { sequence: 1 }),
    ]);
    const b = await collectEvents(new FnCallAgent({ llm: llm('native') }).runEvents([{ role: 'user', content: 'x' }]));
    expect(ofType(b, 'llm-retry')).toHaveLength(1);
    expect(
      ofType(b, 'text-delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('after the stream error');
  });

  it('reports a persistent 500 clearly after the retries', async () => {
    await rules([rule(apiError('The engine is overloaded', 'server_error'), {}, 500)]);
    const events = await collectEvents(
      new FnCallAgent({ llm: llm('native', { stream: false }) }).runEvents([{ role: 'user', content: 'x' }]),
    );
    expect(requestCount).toBe(3);
    expect(ofType(events, 'run-end')[0]).toMatchObject({
      reason: 'error',
      error: { status: 500, message: expect.stringContaining('The engine is overloaded') },
    });
  });

  it('stops a model that never stops calling tools after exactly MAX_LLM_CALL_PER_RUN (20) requests', async () => {
    await rules([
      rule(
        completion({
          content: '<tool_call>\n{"name": "calculator", "arguments": {"expression": "1+1"}}\n</tool_call>',
        }),
      ),
    ]);
    const a = new FnCallAgent({ llm: llm('nous'), functionList: ['calculator'] });
    expect(a.maxLlmCalls).toBe(20);
    const events = await collectEvents(a.runEvents([{ role: 'user', content: 'loop forever' }]));
    expect(requestCount).toBe(20);
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'max-iterations', llmCalls: 20, toolCalls: 20 });
  });

  it('reports a stream cut by the server dying mid-answer as interrupted, not as an answer', async () => {
    await rules(
      [rule(completion({ content: 'a long answer that will never finish because the server dies '.repeat(20) }))],
      { chunkSize: 10, chunkIntervalMs: 30 },
    );
    const agent = new FnCallAgent({ llm: llm('native', { max_retries: 0 }) });
    const pending = collectEvents(agent.runEvents([{ role: 'user', content: 'x' }]));
    await new Promise((r) => setTimeout(r, 400));
    mock.kill('SIGKILL');
    const events = await pending;
    expect(ofType(events, 'text-delta').length).toBeGreaterThan(0);
    const end = ofType(events, 'run-end')[0]!;
    expect(end.reason).toBe('error');
    expect(end.error?.message).toMatch(/before finishing|connection|terminated/i);
    await startMock(); // leave it running for anything after
  });
});
