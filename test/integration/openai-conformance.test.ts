// POST /v1/chat/completions as OpenAI's own clients use it: the official `openai` npm client and the Vercel AI SDK
// (`ai` with `@ai-sdk/openai-compatible`) against the handlers behind a real HTTP server, the app's agent factory
// talking HTTP to the scripted model server. Each Chat Completions parameter is honoured, passed to the model, or
// refused with a 400 naming it (docs/qwen-agent.md has the table): finish_reason "length", tool_choice, parallel_tool_calls,
// response_format, stop, n, logprobs, errors with type/param/code, and the run limits a client's test run meets.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, jsonSchema, Output, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { parseAgentDefinition } from '../../lib/chat/saved-agents';
import { loadConfig } from '../../lib/config';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { ownerScope } from '../../lib/store/owner';
import { openSqliteStore } from '../../lib/store';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { startApiServer, type ApiServer } from '../support/api-server';

let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;
let api: ApiServer;
let client: OpenAI;
const A = ownerScope('user-a');
let nousAgent: string;
let reactAgent: string;
let toollessAgent: string;

beforeAll(async () => {
  model = await createModelServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'openai-conformance-'));
  store = await openSqliteStore(path.join(dataDir, 'chat.db'));
  // The default run limits (no MAX_RUNS_PER_MINUTE here): this file is a client's test run.
  const config = loadConfig({ DATA_DIR: dataDir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' });
  ctx = await createAppContext(config, store);
  api = await startApiServer(ctx, { 'key-a': everyToolActor(A) });
  client = new OpenAI({ baseURL: api.url, apiKey: 'key-a', maxRetries: 0 });
  nousAgent = (
    await store.createAgent(
      A,
      parseAgentDefinition({ name: 'Nous desk', kind: 'fncall', fncallMode: 'nous', tools: ['calculator'] }),
    )
  ).id;
  reactAgent = (
    await store.createAgent(A, parseAgentDefinition({ name: 'React desk', kind: 'react', tools: ['calculator'] }))
  ).id;
  toollessAgent = (await store.createAgent(A, parseAgentDefinition({ name: 'Bare desk', kind: 'fncall', tools: [] })))
    .id;
});
afterAll(async () => {
  await api.close();
  await store.close();
  await model.close();
});
beforeEach(() => model.reset());

const ask = [{ role: 'user' as const, content: 'What is 1+1?' }];
const calc = (expression: string, id?: string) => ({
  ...(id ? { id } : {}),
  name: 'calculator',
  arguments: JSON.stringify({ expression }),
});
const forecast: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_forecast',
    description: 'Forecast for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const toolNames = (body: { tools?: { function: { name: string } }[] }) => body.tools?.map((t) => t.function.name);
/** The 400 the client raised for a request, as OpenAI's clients expose it. */
async function refusal(body: Record<string, unknown>) {
  const e = await client.chat.completions
    .create({
      model: 'fncall',
      messages: ask,
      ...body,
    } as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming)
    .catch((err: unknown) => err);
  expect(e).toBeInstanceOf(OpenAI.BadRequestError);
  return e as InstanceType<typeof OpenAI.BadRequestError>;
}

describe('finish_reason', () => {
  it('an answer cut by max_tokens reports "length", streamed or not', async () => {
    model.setScenario({ fallback: { content: 'The answer is a long', finishReason: 'length' } });
    const whole = await client.chat.completions.create({ model: 'fncall', messages: ask, max_tokens: 5 });
    expect(whole.choices[0]!.finish_reason).toBe('length');
    expect(whole.choices[0]!.message.content).toBe('The answer is a long');
    expect(model.requests[0]!.body.max_tokens).toBe(5);
    const stream = await client.chat.completions.create({
      model: 'fncall',
      messages: ask,
      max_completion_tokens: 5,
      stream: true,
    });
    const finishes: string[] = [];
    for await (const chunk of stream)
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    expect(finishes).toEqual(['length']);
    expect(model.requests[1]!.body.max_tokens).toBe(5);
  });
});

describe('tool_choice', () => {
  it('"none": no tool is offered, and tool calls a server sends anyway are dropped, not run or returned', async () => {
    model.setScenario({ replies: [{ content: 'Two.', toolCalls: [calc('1+1')] }] });
    const r = await client.chat.completions.create({
      model: 'fncall',
      messages: ask,
      tools: [forecast],
      tool_choice: 'none',
    });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.body.tools).toBeUndefined();
    expect(model.requests[0]!.body.tool_choice).toBeUndefined();
    expect(r.choices[0]!.message.tool_calls).toBeUndefined();
    expect(r.choices[0]!.message.content).toBe('Two.');
    expect(r.choices[0]!.finish_reason).toBe('stop');
    expect((r as unknown as { agent_steps: unknown[] }).agent_steps).toEqual([]);
  });

  it('"required": the first model call must call a tool; after the tool ran, the model may answer', async () => {
    model.setScenario({ replies: [{ toolCalls: [calc('1+1')] }, { content: 'It is 2.' }] });
    const r = await client.chat.completions.create({ model: 'fncall', messages: ask, tool_choice: 'required' });
    expect(r.choices[0]!.message.content).toBe('It is 2.');
    expect(model.requests[0]!.body.tool_choice).toBe('required');
    expect(model.requests[1]!.body.tool_choice).toBeUndefined();
  });

  it('a named function: only that tool is offered, and the first call is made to call it', async () => {
    model.setScenario({ replies: [{ toolCalls: [calc('6*7')] }, { content: '42.' }] });
    const r = await client.chat.completions.create({
      model: 'fncall',
      messages: ask,
      tools: [forecast],
      tool_choice: { type: 'function', function: { name: 'calculator' } },
    });
    expect(r.choices[0]!.message.content).toBe('42.');
    expect(toolNames(model.requests[0]!.body)).toEqual(['calculator']);
    expect(model.requests[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'calculator' } });
    expect(toolNames(model.requests[1]!.body)).toEqual(['calculator']);
    expect(model.requests[1]!.body.tool_choice).toBeUndefined();

    // The caller's own tool, named: the turn ends with its call, as OpenAI's does.
    model.setScenario({ replies: [{ toolCalls: [{ id: 'f1', name: 'get_forecast', arguments: '{"city":"Oslo"}' }] }] });
    const own = await client.chat.completions.create({
      model: 'fncall',
      messages: ask,
      tools: [forecast],
      tool_choice: { type: 'function', function: { name: 'get_forecast' } },
    });
    expect(own.choices[0]!.finish_reason).toBe('tool_calls');
    // A whole message's calls are OpenAI's ChatCompletionMessageToolCall: no stream `index` in them.
    expect(own.choices[0]!.message.tool_calls).toEqual([
      { id: 'f1', type: 'function', function: { name: 'get_forecast', arguments: '{"city":"Oslo"}' } },
    ]);
    expect(toolNames(model.requests[2]!.body)).toEqual(['get_forecast']);
  });

  it('what the agent cannot honour is a 400 naming tool_choice (and tools), before anything runs', async () => {
    const unknown = await refusal({ tool_choice: { type: 'function', function: { name: 'nope' } } });
    expect(unknown).toMatchObject({ type: 'invalid_request_error', param: 'tool_choice', code: 'invalid_value' });
    expect(unknown.message).toMatch(/"nope" is not one of the tools \(.*calculator/);
    const nous = await refusal({ model: nousAgent, tool_choice: 'required' });
    expect(nous).toMatchObject({ param: 'tool_choice', code: 'unsupported_value' });
    expect(nous.message).toMatch(/writes calls as text \(nous\)/);
    expect(await refusal({ model: reactAgent, tool_choice: 'none' })).toMatchObject({
      param: 'tool_choice',
      code: 'unsupported_parameter',
    });
    expect(await refusal({ model: reactAgent, tools: [forecast] })).toMatchObject({
      param: 'tools',
      code: 'unsupported_parameter',
    });
    expect(model.requests).toHaveLength(0);
  });

  it('any tool_choice where no tool is offered (the agent has none, the request sends none) is OpenAI’s 400', async () => {
    // OpenAI refuses every value without tools, "none" and "auto" too: status, type, param and code as it answers.
    const choices = ['none', 'auto', 'required', { type: 'function', function: { name: 'get_forecast' } }] as const;
    for (const tool_choice of choices) {
      const refused = await refusal({ model: toollessAgent, tool_choice });
      expect(refused, JSON.stringify(tool_choice)).toMatchObject({
        status: 400,
        type: 'invalid_request_error',
        param: 'tool_choice',
        code: null,
      });
      expect((refused.error as { message: string }).message).toMatch(
        /^Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified\./,
      );
    }
    expect(model.requests).toHaveLength(0);
    // The same choices with the request's tools, or the agent's own, are kept.
    model.setScenario({ fallback: { content: 'Two.' } });
    for (const tool_choice of ['none', 'auto'] as const) {
      const withTools = await client.chat.completions.create({
        model: toollessAgent,
        messages: ask,
        tools: [forecast],
        tool_choice,
      });
      expect(withTools.choices[0]!.message.content).toBe('Two.');
      const agentsOwn = await client.chat.completions.create({ model: 'fncall', messages: ask, tool_choice });
      expect(agentsOwn.choices[0]!.message.content).toBe('Two.');
    }
  });
});

describe('parallel_tool_calls, stop, response_format, and the rest', () => {
  it('tools: [] and parallel_tool_calls without tools, which OpenAI refuses, are let through as no tools', async () => {
    model.setScenario({ fallback: { content: 'Two.' } });
    const r = await client.chat.completions.create({
      model: toollessAgent,
      messages: ask,
      tools: [],
      parallel_tool_calls: true,
    });
    expect(r.choices[0]!.message.content).toBe('Two.');
    expect(model.requests[0]!.body.tools).toBeUndefined();
  });
  it('parallel_tool_calls false reaches the model, and a second call the server makes anyway is not run', async () => {
    model.setScenario({ replies: [{ toolCalls: [calc('1+1', 'a'), calc('2+2', 'b')] }, { content: 'Done.' }] });
    const r = await client.chat.completions.create({ model: 'fncall', messages: ask, parallel_tool_calls: false });
    expect(model.requests[0]!.body.parallel_tool_calls).toBe(false);
    const steps = (r as unknown as { agent_steps: { type: string; arguments?: string }[] }).agent_steps;
    expect(steps.filter((s) => s.type === 'tool_call').map((s) => s.arguments)).toEqual(['{"expression":"1+1"}']);
  });

  it('stop reaches the model and cuts the answer', async () => {
    model.setScenario({ replies: [{ content: 'Two. END of answer' }] });
    const r = await client.chat.completions.create({ model: 'fncall', messages: ask, stop: ['END'] });
    expect(model.requests[0]!.body.stop).toEqual(['END']);
    expect(r.choices[0]!.message.content).toBe('Two. ');
  });

  it('a stop the model cannot take is a 400 naming stop and saying what to send', async () => {
    for (const stop of [['a', 'b', 'c', 'd', 'e'], 4, [1], ['a', null]]) {
      const bad = await refusal({ stop });
      expect(bad.param, JSON.stringify(stop)).toBe('stop');
      expect(bad.error).toMatchObject({ message: 'stop: a string or a list of at most 4 strings.' });
    }
    expect(model.requests).toHaveLength(0);
  });

  it('response_format reaches the model as given; an agent writing tool calls as text refuses it unless no tool is offered', async () => {
    const format = {
      type: 'json_schema' as const,
      json_schema: { name: 'sum', schema: { type: 'object', properties: { value: { type: 'number' } } }, strict: true },
    };
    model.setScenario({ fallback: { content: '{"value": 2}' } });
    const r = await client.chat.completions.create({ model: 'fncall', messages: ask, response_format: format });
    expect(JSON.parse(r.choices[0]!.message.content!)).toEqual({ value: 2 });
    expect(model.requests[0]!.body.response_format).toEqual(format);
    const nous = await refusal({ model: nousAgent, response_format: { type: 'json_object' } });
    expect(nous).toMatchObject({ param: 'response_format', code: 'unsupported_value' });
    expect(model.requests).toHaveLength(1);
    await client.chat.completions.create({
      model: nousAgent,
      messages: ask,
      response_format: { type: 'json_object' },
      tool_choice: 'none',
    });
    expect(model.requests[1]!.body.response_format).toEqual({ type: 'json_object' });
    expect((await refusal({ model: reactAgent, response_format: { type: 'json_object' } })).param).toBe(
      'response_format',
    );
  });

  it('n > 1, logprobs, audio output and the deprecated functions are refused naming the parameter; account fields are accepted and not sent', async () => {
    // OpenAI's codes for what its API has and a model of its does not: the value, or the parameter.
    expect(await refusal({ n: 2 })).toMatchObject({ param: 'n', code: 'unsupported_value' });
    expect(await refusal({ logprobs: true, top_logprobs: 2 })).toMatchObject({
      param: 'logprobs',
      code: 'unsupported_value',
    });
    expect(await refusal({ modalities: ['text', 'audio'] })).toMatchObject({
      param: 'modalities',
      code: 'unsupported_value',
    });
    expect(await refusal({ functions: [forecast.function] })).toMatchObject({
      param: 'functions',
      code: 'unsupported_parameter',
    });
    expect(model.requests).toHaveLength(0);
    model.setScenario({ fallback: { content: 'ok' } });
    await client.chat.completions.create({
      model: 'fncall',
      messages: ask,
      n: 1,
      logprobs: false,
      user: 'u-1',
      metadata: { suite: 'conformance' },
      store: false,
      reasoning_effort: 'low',
    });
    const body = model.requests[0]!.body;
    expect(body.reasoning_effort).toBe('low');
    for (const key of ['user', 'metadata', 'store', 'n', 'logprobs']) expect(body, key).not.toHaveProperty(key);
  });
});

describe('stream_options', () => {
  it('without "stream": true is a 400 naming it, as OpenAI answers; with a stream it is honoured', async () => {
    for (const stream of [undefined, false]) {
      const bad = await refusal({ stream, stream_options: { include_usage: true } });
      expect(bad, String(stream)).toMatchObject({
        status: 400,
        type: 'invalid_request_error',
        param: 'stream_options',
      });
      expect(bad.message).toMatch(/only allowed with "stream": true/);
    }
    expect(model.requests).toHaveLength(0);
    model.setScenario({ fallback: { content: 'ok', usage: { prompt_tokens: 3, completion_tokens: 1 } } });
    const stream = await client.chat.completions.create({
      model: 'fncall',
      messages: ask,
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 1 });
  });
});

describe('what the openai client lets a caller send', () => {
  it('null for each parameter the client types as nullable is accepted, as OpenAI accepts it, and nothing is sent for it', async () => {
    model.setScenario({ fallback: { content: 'ok' } });
    const nulls = {
      stream: null,
      stream_options: null,
      temperature: null,
      top_p: null,
      max_tokens: null,
      max_completion_tokens: null,
      presence_penalty: null,
      frequency_penalty: null,
      seed: null,
      stop: null,
      n: null,
      logprobs: null,
      top_logprobs: null,
      logit_bias: null,
      reasoning_effort: null,
      verbosity: null,
      metadata: null,
      store: null,
      service_tier: null,
      prediction: null,
      modalities: null,
      audio: null,
      prompt_cache_key: null,
      prompt_cache_retention: null,
      safety_identifier: null,
      moderation: null,
    } satisfies Partial<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming>;
    const r = await client.chat.completions.create({ model: 'fncall', messages: ask, ...nulls });
    expect(r.choices[0]!.message.content).toBe('ok');
    const body = model.requests[0]!.body;
    // The model call streams (as every call does) and gets a random seed (as upstream adds one); nothing else is sent.
    for (const key of Object.keys(nulls).filter((k) => !['stream', 'stream_options', 'seed'].includes(k)))
      expect(body, key).not.toHaveProperty(key);
    expect(Number.isInteger(body.seed)).toBe(true);
  });

  it('sampling values outside OpenAI’s ranges are a 400 naming the parameter before any model call; the bounds pass', async () => {
    expect((await refusal({ temperature: 2.5 })).param).toBe('temperature');
    expect((await refusal({ temperature: -0.1 })).param).toBe('temperature');
    expect((await refusal({ top_p: 1.5 })).param).toBe('top_p');
    expect((await refusal({ presence_penalty: -2.5 })).param).toBe('presence_penalty');
    expect((await refusal({ frequency_penalty: 3 })).param).toBe('frequency_penalty');
    const bias = await refusal({ logit_bias: { '1734': 150 } });
    expect(bias.param).toBe('logit_bias.1734');
    expect(bias.message).toMatch(/between -100 and 100/);
    expect(model.requests).toHaveLength(0);
    model.setScenario({ fallback: { content: 'ok' } });
    const bounds = {
      temperature: 2,
      top_p: 0,
      presence_penalty: -2,
      frequency_penalty: 2,
      logit_bias: { '1734': -100 },
    };
    await client.chat.completions.create({ model: 'fncall', messages: ask, ...bounds });
    expect(model.requests[0]!.body).toMatchObject(bounds);
  });

  it('what it can send and no agent does is refused with a message that says what is accepted, coded as OpenAI codes what a model does not support', async () => {
    const moderation = await refusal({ moderation: { model: 'omni-moderation-latest' } });
    expect(moderation).toMatchObject({ param: 'moderation', code: 'unsupported_parameter' });
    expect(moderation.message).toMatch(/moderat/);
    const allowed = await refusal({
      tools: [forecast],
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [forecast] } },
    });
    expect(allowed).toMatchObject({ param: 'tool_choice', code: 'unsupported_value' });
    expect(allowed.message).toMatch(/"none", "auto", "required" or \{"type": "function"/);
    const custom = await refusal({ tools: [{ type: 'custom', custom: { name: 'grammar_tool' } }] });
    expect(custom).toMatchObject({ param: 'tools[0].type', code: 'unsupported_value' });
    expect(custom.message).toMatch(/function tools only/);
    const file = await refusal({
      messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }],
    });
    expect(file).toMatchObject({ param: 'messages[0].content', code: 'unsupported_value' });
    expect(file.message).toMatch(/text and image_url parts/);
    const functionMessage = await refusal({
      messages: [...ask, { role: 'function', name: 'calculator', content: '2' }],
    });
    expect(functionMessage).toMatchObject({ param: 'messages[1].role', code: 'unsupported_value' });
    const noUser = await refusal({ messages: [{ role: 'system', content: 'Be brief.' }] });
    expect(noUser).toMatchObject({ param: 'messages', code: 'unsupported_value' });
    expect(noUser.error).toMatchObject({ message: 'messages: must hold a user message.' });
    // A wrong value that is no feature of OpenAI's either stays invalid_value.
    expect(await refusal({ tool_choice: 'any' })).toMatchObject({ param: 'tool_choice', code: 'invalid_value' });
    expect(model.requests).toHaveLength(0);
  });

  it('a tool message answering no call names it: param messages[i].tool_call_id', async () => {
    const orphan = await refusal({ messages: [...ask, { role: 'tool', tool_call_id: 'nope', content: 'r' }] });
    expect(orphan).toMatchObject({ param: 'messages[1].tool_call_id', code: 'invalid_value' });
    expect(orphan.error).toMatchObject({
      message: 'messages[1]: a tool message answers tool_call_id "nope", which no earlier assistant message called.',
    });
  });
});

describe('a malformed request', () => {
  it('each field sent in the wrong form is refused in words that say what to send, never zod’s bare "Invalid input"; param is its path as OpenAI writes it and code OpenAI’s', async () => {
    const user = { role: 'user', content: 'Hi' };
    const cases: [Record<string, unknown>, string, string, string][] = [
      [
        { stop: ['a', 'b', 'c', 'd', 'e'] },
        'stop',
        'stop: a string or a list of at most 4 strings.',
        'array_above_max_length',
      ],
      [{ stop: 4 }, 'stop', 'stop: a string or a list of at most 4 strings.', 'invalid_type'],
      [{ stop: [1] }, 'stop', 'stop: a string or a list of at most 4 strings.', 'invalid_type'],
      [
        { messages: [{ role: 'user', content: { text: 'Hi' } }] },
        'messages[0].content',
        'messages[0].content: content is a string, or an array of text and image_url parts (input_audio, file and refusal parts are not accepted).',
        'invalid_type',
      ],
      [{ temperature: 'hot' }, 'temperature', 'temperature: must be a number, not a string.', 'invalid_type'],
      [{ temperature: 2.5 }, 'temperature', 'temperature: must be between 0 and 2', 'decimal_above_max_value'],
      [{ max_tokens: 0 }, 'max_tokens', 'max_tokens: must be a whole number above 0.', 'integer_below_min_value'],
      [
        { max_completion_tokens: 1.5 },
        'max_completion_tokens',
        'max_completion_tokens: must be a whole number, not 1.5.',
        'invalid_type',
      ],
      [{ seed: 'x' }, 'seed', 'seed: must be a whole number, not a string.', 'invalid_type'],
      [{ n: 0 }, 'n', 'n: must be a whole number above 0.', 'integer_below_min_value'],
      [{ top_logprobs: 21 }, 'top_logprobs', 'top_logprobs: must be 20 or less.', 'integer_above_max_value'],
      [{ stream: 'yes' }, 'stream', 'stream: must be true or false, not a string.', 'invalid_type'],
      [
        { stream_options: { include_usage: 1 } },
        'stream_options.include_usage',
        'stream_options.include_usage: must be true or false, not a number.',
        'invalid_type',
      ],
      [{ logit_bias: [1] }, 'logit_bias', 'logit_bias: must be an object, not a list.', 'invalid_type'],
      [{ metadata: { a: 1 } }, 'metadata.a', 'metadata.a: must be a string, not a number.', 'invalid_type'],
      [{ modalities: 'text' }, 'modalities', 'modalities: must be a list, not a string.', 'invalid_type'],
      [
        { parallel_tool_calls: 1 },
        'parallel_tool_calls',
        'parallel_tool_calls: must be true or false, not a number.',
        'invalid_type',
      ],
      [{ user: 7 }, 'user', 'user: must be a string, not a number.', 'invalid_type'],
      [
        { response_format: 'json' },
        'response_format',
        'response_format: must be an object, not a string.',
        'invalid_type',
      ],
      [
        { response_format: { type: 'xml' } },
        'response_format.type',
        'response_format.type: must be one of "text", "json_object", "json_schema".',
        'invalid_value',
      ],
      [
        { response_format: { type: 'json_schema' } },
        'response_format.json_schema',
        'response_format.json_schema: must be an object; it is missing.',
        'missing_required_parameter',
      ],
      [
        { tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] },
        'tools[0].function.parameters',
        'tools[0].function.parameters: must be an object, not a string.',
        'invalid_type',
      ],
      [
        { tools: [{ type: 'function', function: { name: 'get weather' } }] },
        'tools[0].function.name',
        'tools[0].function.name: a tool name is 1-64 letters, digits, _ or -',
        'invalid_value',
      ],
      [
        { model: undefined },
        'model',
        'model: must name one of GET /v1/models (an agent id or name).',
        'missing_required_parameter',
      ],
      [{ messages: undefined }, 'messages', 'messages: must be a list; it is missing.', 'missing_required_parameter'],
      [{ messages: [] }, 'messages', 'messages: must hold at least one message.', 'empty_array'],
      [
        { messages: [{ role: 'bot', content: 'Hi' }] },
        'messages[0].role',
        'messages[0].role: must be one of "system", "developer", "user", "assistant", "tool".',
        'invalid_value',
      ],
      [{ messages: ['Hi'] }, 'messages[0]', 'messages[0]: must be an object, not a string.', 'invalid_type'],
      [
        { messages: [user, { role: 'tool', content: 'x' }] },
        'messages[1].tool_call_id',
        'messages[1].tool_call_id: must be a string; it is missing.',
        'missing_required_parameter',
      ],
      [
        {
          messages: [
            user,
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'a', type: 'custom', function: { name: 'f', arguments: '{}' } }],
            },
          ],
        },
        'messages[1].tool_calls[0].type',
        'messages[1].tool_calls[0].type: must be "function".',
        'invalid_value',
      ],
    ];
    for (const [body, param, message, code] of cases) {
      const bad = await refusal(body);
      expect(bad, JSON.stringify(body)).toMatchObject({ type: 'invalid_request_error', param, code });
      expect(bad.error, JSON.stringify(body)).toMatchObject({ message });
    }
    expect(model.requests).toHaveLength(0);
  });
});

describe('GET /v1/models/{model}', () => {
  it('client.models.retrieve gives a model the list holds, by id or name; an unknown one is a 404 model_not_found', async () => {
    expect(await client.models.retrieve('fncall')).toMatchObject({
      id: 'fncall',
      object: 'model',
      owned_by: 'agent-studio',
    });
    expect(await client.models.retrieve(nousAgent)).toMatchObject({
      id: nousAgent,
      object: 'model',
      name: 'Nous desk',
    });
    expect(await client.models.retrieve('nous desk')).toMatchObject({ id: nousAgent });
    const listed = (await client.models.list()).data.find((m) => m.id === nousAgent)!;
    const { created: _listedAt, ...asListed } = listed;
    expect(await client.models.retrieve(nousAgent)).toMatchObject(asListed);
    const missing = await client.models.retrieve('no-such').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing).toMatchObject({ type: 'invalid_request_error', param: 'model', code: 'model_not_found' });
  });
});

describe('errors in OpenAI’s shape', () => {
  it('carry type, param and code, which the client exposes', async () => {
    const bad = await refusal({ temperature: 'hot' });
    expect(bad).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'temperature' });
    // A completion naming an unknown model: OpenAI's 404 names no param.
    const missing = await client.chat.completions.create({ model: 'no-such', messages: ask }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing).toMatchObject({ status: 404, type: 'invalid_request_error', param: null, code: 'model_not_found' });
    const streamed = await client.chat.completions
      .create({ model: 'no-such', messages: ask, stream: true })
      .catch((e: unknown) => e);
    expect(streamed).toMatchObject({
      status: 404,
      type: 'invalid_request_error',
      param: null,
      code: 'model_not_found',
    });
    const stranger = new OpenAI({ baseURL: api.url, apiKey: 'not-a-key', maxRetries: 0 });
    const denied = await stranger.models.list().catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(denied).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key', param: null });
  });
});

describe('the Vercel AI SDK', () => {
  const provider = () =>
    createOpenAICompatible({
      name: 'studio',
      baseURL: api.url,
      apiKey: 'key-a',
      includeUsage: true,
      supportsStructuredOutputs: true,
    });

  it('generateText and streamText: the answer, usage and finish reasons (stop, length)', async () => {
    model.setScenario({
      replies: [
        { content: 'Two.', usage: { prompt_tokens: 7, completion_tokens: 2 } },
        { content: 'A cut ans', finishReason: 'length' },
      ],
    });
    const text = await generateText({ model: provider()('fncall'), prompt: 'What is 1+1?', maxRetries: 0 });
    expect(text.text).toBe('Two.');
    expect(text.finishReason).toBe('stop');
    expect(text.usage.inputTokens).toBe(7);
    const streamed = streamText({
      model: provider()('fncall'),
      prompt: 'Say a lot',
      maxOutputTokens: 3,
      maxRetries: 0,
    });
    let out = '';
    for await (const piece of streamed.textStream) out += piece;
    expect(out).toBe('A cut ans');
    expect(await streamed.finishReason).toBe('length');
    expect(model.requests[1]!.body.max_tokens).toBe(3);
  });

  it('runs its own tools over steps: the call comes back as tool_calls, its result goes back as a tool message', async () => {
    model.setScenario({
      replies: [
        { toolCalls: [{ id: 'w1', name: 'get_forecast', arguments: '{"city":"Oslo"}' }] },
        { content: 'Snow in Oslo.' },
      ],
    });
    const seen: string[] = [];
    const result = await generateText({
      model: provider()('fncall'),
      prompt: 'Weather in Oslo?',
      maxRetries: 0,
      stopWhen: stepCountIs(3),
      toolChoice: { type: 'tool', toolName: 'get_forecast' },
      tools: {
        get_forecast: tool({
          description: 'Forecast for a city',
          inputSchema: jsonSchema<{ city: string }>({
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          }),
          execute: async ({ city }) => {
            seen.push(city);
            return `Snow, -3°C in ${city}`;
          },
        }),
      },
      prepareStep: ({ stepNumber }) => (stepNumber > 0 ? { toolChoice: 'auto' } : {}),
    });
    expect(seen).toEqual(['Oslo']);
    expect(result.text).toBe('Snow in Oslo.');
    expect(result.steps[0]!.finishReason).toBe('tool-calls');
    expect(model.requests[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'get_forecast' } });
    const sent = model.requests[1]!.body.messages as { role: string; tool_call_id?: string; content: string }[];
    expect(sent.slice(-2)).toMatchObject([
      { role: 'assistant', tool_calls: [{ id: 'w1' }] },
      { role: 'tool', tool_call_id: 'w1' },
    ]);
    expect(sent.at(-1)!.content).toContain('Snow, -3°C in Oslo');
  });

  it('structured output: its json_schema response_format reaches the model and the object comes back', async () => {
    model.setScenario({ fallback: { content: '{"city":"Oslo","celsius":-3}' } });
    const result = await generateText({
      model: provider()('fncall'),
      prompt: 'Weather in Oslo as JSON',
      maxRetries: 0,
      output: Output.object({
        schema: jsonSchema<{ city: string; celsius: number }>({
          type: 'object',
          properties: { city: { type: 'string' }, celsius: { type: 'number' } },
          required: ['city', 'celsius'],
          additionalProperties: false,
        }),
      }),
    });
    expect(result.output).toEqual({ city: 'Oslo', celsius: -3 });
    expect(model.requests[0]!.body.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('an error is an APICallError with the status and OpenAI’s error body', async () => {
    const e = await generateText({ model: provider()('no-such-agent'), prompt: 'hi', maxRetries: 0 }).catch(
      (err: unknown) => err,
    );
    expect(APICallError.isInstance(e)).toBe(true);
    expect((e as APICallError).statusCode).toBe(404);
    expect(JSON.parse((e as APICallError).responseBody!).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'model_not_found',
      param: null,
    });
  });
});

describe('run limits', () => {
  it('a client’s quick test run (40 completions in a row) passes under the default limits', async () => {
    model.setScenario({ fallback: { content: 'ok' } });
    for (let i = 0; i < 40; i++) {
      const r = await client.chat.completions.create({ model: 'fncall', messages: ask });
      expect(r.choices[0]!.message.content).toBe('ok');
    }
  });
});
