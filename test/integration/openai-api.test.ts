// The agents as an OpenAI-compatible API, driven by the official `openai` npm client as any third party would:
// GET /v1/models, POST /v1/chat/completions streamed and not, usage, a server-side tool step, a client-side tool,
// errors in OpenAI's shape. The handlers run behind a plain Node HTTP server (test/support/api-server.ts) over a real
// SQLite store, with the app's own agent factory talking HTTP to the scripted model server; every run is stored like
// the page's, under its caller. Each API key stands for one user: a user's key sees and runs only their agents.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor, type Actor } from '../../lib/chat/actor';
import { parseAgentDefinition } from '../../lib/chat/saved-agents';
import { loadConfig } from '../../lib/config';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { ownerScope, storageRoot } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { startApiServer, type ApiServer } from '../support/api-server';

/** The builtin agent kinds GET /v1/models lists before the saved agents. */
const BUILTIN_KINDS = [
  'fncall',
  'react',
  'assistant',
  'virtualmemory',
  'memo',
  'tir',
  'article',
  'basicdocqa',
  'paralleldocqa',
];

let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;
let api: ApiServer;
let client: OpenAI;
let port: number;
const A = ownerScope('user-a');
const B = ownerScope('user-b');
const ACTORS: Record<string, Actor> = { 'key-a': everyToolActor(A), 'key-b': everyToolActor(B) };

beforeAll(async () => {
  model = await createModelServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'openai-api-'));
  store = await openSqliteStore(path.join(dataDir, 'chat.db'));
  const config = loadConfig({ DATA_DIR: dataDir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' });
  ctx = await createAppContext(config, store);
  api = await startApiServer(ctx, ACTORS);
  port = api.port;
  client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'key-a', maxRetries: 0 });
});
afterAll(async () => {
  await api.close();
  await store.close();
  await model.close();
});
beforeEach(() => model.reset());

describe('the /v1 API', () => {
  it('lists every agent as a model', async () => {
    const models = [];
    for await (const m of client.models.list()) models.push(m);
    expect(models.map((m) => m.id)).toEqual(BUILTIN_KINDS);
    expect(models[0]).toMatchObject({ object: 'model', owned_by: 'agent-studio' });
  });

  it("runs Qwen-Agent's special kinds by name: a MemoAssistant keeps its note in the caller's own storage", async () => {
    model.setScenario({
      replies: [
        { toolCalls: [{ id: 'n1', name: 'storage', arguments: '{"operate":"put","key":"pet","value":"an otter"}' }] },
        { content: 'I will remember your otter.' },
      ],
    });
    const { data, response } = await client.chat.completions
      .create({ model: 'MemoAssistant', messages: [{ role: 'user', content: 'My pet is an otter.' }] })
      .withResponse();
    expect(data.choices[0]!.message.content).toBe('I will remember your otter.');
    const system = model.requests[0]!.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('<info>');
    const root = storageRoot(ctx.config.dataDir, A);
    expect(readFileSync(path.join(root, 'pet'), 'utf8')).toBe('an otter');
    const events = await store.getRunEvents(A, response.headers.get('x-run-id')!);
    const start = events.find((e) => e.type === 'run-start');
    expect(start).toMatchObject({ kind: 'memo', agent: 'assistant' });
    expect(start?.type === 'run-start' && start.tools[0]).toBe('storage');
  });

  it('answers one completion with usage, running its own tool server-side, and stores the run', async () => {
    model.setScenario({
      replies: [
        {
          toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }],
          usage: { prompt_tokens: 10, completion_tokens: 5 },
        },
        { content: 'It is 42.', usage: { prompt_tokens: 20, completion_tokens: 4 } },
      ],
    });
    const { data, response } = await client.chat.completions
      .create({ model: 'FnCallAgent', messages: [{ role: 'user', content: 'What is 6*7?' }], temperature: 0.2 })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toBe('It is 42.');
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage).toEqual({ prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 });
    expect((data as unknown as { agent_steps: unknown[] }).agent_steps).toMatchObject([
      { type: 'tool_call', name: 'calculator' },
      { type: 'tool_result', name: 'calculator', ok: true, content: '42' },
    ]);
    expect(model.requests[0]!.body.temperature).toBe(0.2);
    // Stored like any run: the inspector opens it.
    const runId = response.headers.get('x-run-id')!;
    expect((await store.getRun(A, runId))?.status).toBe('answered');
    expect((await store.getRunEvents(A, runId)).some((e) => e.type === 'tool-result')).toBe(true);
  });

  it('streams Chat Completions chunks: content, reasoning, steps standard clients ignore, usage at the end', async () => {
    model.setScenario({
      replies: [
        {
          reasoning: 'Think.',
          toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"1+1"}' }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        },
        { content: 'Two, as computed.', usage: { prompt_tokens: 7, completion_tokens: 3 } },
      ],
    });
    const stream = await client.chat.completions.create({
      model: 'fncall',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: '1+1?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let reasoning = '';
    const finish: (string | null)[] = [];
    const steps: unknown[] = [];
    let usage;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? '';
      reasoning += (choice?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
      if (choice?.finish_reason) finish.push(choice.finish_reason);
      const step = (chunk as unknown as { agent_step?: unknown }).agent_step;
      if (step) steps.push(step);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('Two, as computed.');
    expect(reasoning).toBe('Think.');
    expect(finish).toEqual(['stop']);
    expect(steps).toMatchObject([{ type: 'tool_call' }, { type: 'tool_result', content: '2' }]);
    expect(usage).toEqual({ prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 });
    expect(model.requests[0]!.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('answers with a ReAct reply that skipped the format, streamed and not; a Final Answer stays the only content', async () => {
    // Small models often write a plain reply without "Final Answer:": upstream yields it as the answer.
    model.setScenario({ fallback: { content: 'Paris is the capital of France.', chunkSize: 6 } });
    const ask = { model: 'react', messages: [{ role: 'user' as const, content: 'Capital of France?' }] };
    const whole = await client.chat.completions.create(ask);
    expect(whole.choices[0]!.message.content).toBe('Paris is the capital of France.');
    expect(whole.choices[0]!.finish_reason).toBe('stop');
    let streamed = '';
    for await (const chunk of await client.chat.completions.create({ ...ask, stream: true }))
      streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe('Paris is the capital of France.');
    // The format followed: the Final Answer alone is the content, not the Thought before it.
    model.setScenario({ fallback: { content: 'Easy one.\nFinal Answer: Paris.' } });
    expect((await client.chat.completions.create(ask)).choices[0]!.message.content).toBe('Paris.');
  });

  it("offers the caller's own tool to the model and ends the turn with its call, then takes the caller's result", async () => {
    model.setScenario({
      replies: [
        { toolCalls: [{ id: 'w1', name: 'get_forecast', arguments: '{"city":"Oslo"}' }] },
        { content: 'Snow in Oslo.' },
      ],
    });
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_forecast',
          description: 'Forecast for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const question = { role: 'user' as const, content: 'Weather in Oslo?' };
    const first = await client.chat.completions.create({ model: 'fncall', messages: [question], tools });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call).toMatchObject({ id: 'w1', type: 'function', function: { name: 'get_forecast' } });
    const offered = model.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(['get_forecast', 'calculator']));
    expect(model.requests).toHaveLength(1); // the client's tool was not run here

    const second = await client.chat.completions.create({
      model: 'fncall',
      tools,
      messages: [question, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'Snow, -3°C' }],
    });
    expect(second.choices[0]!.message.content).toBe('Snow in Oslo.');
    const sent = model.requests[1]!.body.messages as { role: string; content: string; tool_call_id?: string }[];
    expect(sent.slice(-2)).toMatchObject([
      { role: 'assistant', tool_calls: [{ id: 'w1' }] },
      { role: 'tool', tool_call_id: 'w1', content: 'Snow, -3°C' },
    ]);
  });

  it('answers errors in OpenAI’s shape, which the client raises', async () => {
    const missing = await client.chat.completions
      .create({ model: 'no-such-agent', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    expect((missing as Error).message).toMatch(
      /GET \/v1\/models lists the agents \(fncall, react, assistant, virtualmemory, memo, tir, article, basicdocqa, paralleldocqa\)/,
    );

    const bad = await client.chat.completions.create({ model: 'fncall', messages: [] }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as Error).message).toMatch(/messages: must hold at least one message/);

    const orphan = await client.chat.completions
      .create({
        model: 'fncall',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'nope', content: 'r' },
        ],
      })
      .catch((e: unknown) => e);
    expect((orphan as Error).message).toMatch(/tool_call_id "nope", which no earlier assistant message called/);

    // Twice: a 400 to a request with tools is first retried with the tools in the text (lib/llm/tool-fallback.ts);
    // the same 400 again was not about tools, and stands.
    const broken = { fault: { kind: 'status' as const, status: 400, body: { error: { message: 'broken' } } } };
    model.setScenario({ replies: [broken, broken] });
    const failed = await client.chat.completions
      .create({ model: 'fncall', messages: [{ role: 'user', content: 'x' }], stream: true })
      .then(async (s) => {
        for await (const _ of s) void _;
      })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    expect((failed as Error).message).toMatch(/broken/);
  });

  it('a user’s key sees and runs only that user’s agents; another user’s agent is an unknown model (404)', async () => {
    const mine = await store.createAgent(A, parseAgentDefinition({ name: 'Otter desk', kind: 'fncall' }));
    const other = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'key-b', maxRetries: 0 });
    const ids = async (c: OpenAI) => {
      const out: string[] = [];
      for await (const m of c.models.list()) out.push(m.id);
      return out;
    };
    expect(await ids(client)).toContain(mine.id);
    expect(await ids(other)).toEqual(BUILTIN_KINDS);
    const ask = (c: OpenAI, model: string) =>
      c.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi otter' }] });
    await expect(ask(other, mine.id)).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(ask(other, 'Otter desk')).rejects.toMatchObject({ status: 404 });
    expect(model.requests).toHaveLength(0);
    expect(await store.listConversations(B)).toEqual([]);

    model.setScenario({ replies: [{ content: 'Ahoy.' }] });
    const { data, response } = await ask(client, mine.id).withResponse();
    expect(data.choices[0]!.message.content).toBe('Ahoy.');
    // Stored under its caller: A's conversation, not B's.
    const runId = response.headers.get('x-run-id')!;
    expect((await store.getRun(A, runId))?.status).toBe('answered');
    expect(await store.getRun(B, runId)).toBeUndefined();
    await store.deleteAgent(A, mine.id);
  });

  it('answers with the model the client asked for: a saved agent asked by its name is named so, not by its id', async () => {
    const team = await store.createAgent(A, parseAgentDefinition({ name: 'team r', kind: 'fncall' }));
    model.setScenario({ fallback: { content: 'Ready.' } });
    const whole = await client.chat.completions.create({
      model: 'team r',
      messages: [{ role: 'user', content: 'Hi team' }],
    });
    expect(whole.choices[0]!.message.content).toBe('Ready.');
    expect(whole.model).toBe('team r');
    const stream = await client.chat.completions.create({
      model: 'team r',
      messages: [{ role: 'user', content: 'Hi team' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const models = new Set<string>();
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      models.add(chunk.model);
    }
    expect(chunks).toBeGreaterThan(1);
    expect([...models]).toEqual(['team r']);
    // By its id, by a kind's class name: each answer says what was asked.
    const byId = await client.chat.completions.create({ model: team.id, messages: [{ role: 'user', content: 'Hi' }] });
    expect(byId.model).toBe(team.id);
    const byKind = await client.chat.completions.create({
      model: 'FnCallAgent',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(byKind.model).toBe('FnCallAgent');
    // GET /v1/models is unchanged: the saved agent is listed by its id, with its name.
    const listed = [];
    for await (const m of client.models.list()) listed.push(m);
    expect(listed.map((m) => m.id)).toEqual([...BUILTIN_KINDS, team.id]);
    expect(listed.at(-1)).toMatchObject({ id: team.id, name: 'team r', object: 'model' });
    expect(await client.models.retrieve('team r')).toMatchObject({ id: team.id, name: 'team r' });
    await store.deleteAgent(A, team.id);
  });
});
