// A Qwen-Agent user's configuration in TypeScript, over real HTTP against the scripted server: the llm config dict
// where an agent takes `llm`, generate_cfg's keys honoured on the client and never sent (extra_body merged into the
// body, request_timeout as the client's timeout, fncall_prompt_type, lang), the qwen template's upstream defaults,
// the environment's call limit, upstream's option names refused, and Assistant.run's `knowledge`.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Assistant, FnCallAgent, GroupChat, type Message } from '../../lib/agent';
import { createChatModel, getChatModel } from '../../lib/llm';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { collectChat, collectEvents, ofType } from '../support/run';
import { GetWeather } from '../support/tools';
import type { FunctionDef } from '../../lib/llm/schema';

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
const user = (content: string): Message[] => [{ role: 'user', content }];
const text = (events: { type: string; text?: string }[]) =>
  events
    .filter((e) => e.type === 'text-delta')
    .map((e) => e.text)
    .join('');

describe("the llm option as Qwen-Agent's config dict", () => {
  it('builds the model from {model, model_server, api_key, generate_cfg} and runs with it (nous, as upstream)', async () => {
    server.setScenario({
      replies: [
        { content: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>' },
        { content: 'Sunny in Oslo.' },
      ],
    });
    const bot = new FnCallAgent({
      llm: { model: 'Qwen2.5-7B-Instruct', model_server: server.url, api_key: 'EMPTY', generate_cfg: { top_p: 0.8 } },
      functionList: [new GetWeather()],
    });
    expect(bot.llm).toMatchObject({ model: 'Qwen2.5-7B-Instruct', fncallMode: 'nous' });
    const out = await bot.runNonStream(user('Weather in Oslo?'));
    expect(out.at(-1)).toMatchObject({ role: 'assistant', content: 'Sunny in Oslo.' });
    const first = server.requests[0]!;
    expect(first.headers.authorization).toBe('Bearer EMPTY');
    expect(first.body.model).toBe('Qwen2.5-7B-Instruct');
    expect(first.body.top_p).toBe(0.8);
    expect(first.body.tools).toBeUndefined(); // nous: the tools are in the system prompt
    expect(first.body.messages[0].content).toContain(
      '<tools>\n{"type": "function", "function": {"name": "get_weather"',
    );
  });

  it('refuses a config it cannot build when the agent is made, naming what to pass', () => {
    expect(() => new FnCallAgent({ llm: { model: 'gpt-4o', model_type: 'azure' } })).toThrow(
      /model_type 'oai' with model_server/,
    );
    expect(() => new FnCallAgent({ llm: { model: 'gpt-4o' } })).toThrow(/give model_server/);
  });

  it('getChatModel: a DashScope model is reached through its OpenAI-compatible mode', () => {
    const model = getChatModel({ model: 'qwen-max', model_server: 'dashscope' }) as { baseURL?: string };
    expect(model.baseURL).toBe('https://dashscope.aliyuncs.com/compatible-mode/v1');
  });
});

describe('generate_cfg: what the client consumes is honoured and never sent, the rest is sent as given', () => {
  it('merges extra_body into the body top level, sends unknown keys, and sends none of the client keys', async () => {
    server.setScenario({ fallback: 'echo' });
    const model = createChatModel({
      model: 'm',
      baseURL: server.url,
      apiKey: 'k',
      fncallMode: 'nous',
      generateCfg: {
        extra_body: { chat_template_kwargs: { enable_thinking: false }, top_k: 20 },
        repetition_penalty: 1.05,
        max_tokens: 64,
        max_retries: 0,
        use_raw_api: false,
        fncall_prompt_type: 'nous',
        lang: 'en',
        max_input_tokens: 6500,
        parallel_function_calls: true,
        function_choice: 'auto',
        thought_in_content: false,
        request_timeout: 30,
        incremental_output: true,
      },
    });
    await collectChat(model, { messages: user('hi'), functions: [weather] });
    const body = server.requests[0]!.body;
    expect(body.chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(body.top_k).toBe(20);
    expect(body.repetition_penalty).toBe(1.05);
    expect(body.max_tokens).toBe(64);
    for (const key of [
      'extra_body',
      'max_retries',
      'use_raw_api',
      'fncall_prompt_type',
      'lang',
      'max_input_tokens',
      'parallel_function_calls',
      'function_choice',
      'thought_in_content',
      'request_timeout',
      'incremental_output',
    ])
      expect(body, key).not.toHaveProperty(key);
  });

  it('request_timeout is the client timeout in seconds (upstream passes it to the openai client as `timeout`)', async () => {
    server.setScenario({ replies: [{ content: 'late', fault: { kind: 'stall', ms: 3_000, afterChunks: 0 } }] });
    const model = createChatModel({
      model: 'm',
      baseURL: server.url,
      apiKey: 'k',
      generateCfg: { request_timeout: 0.3, max_retries: 0, stream: false },
    });
    await expect(collectChat(model, { messages: user('hi') })).rejects.toThrow(/no response within 300 ms/);
    expect(server.requests[0]!.body).not.toHaveProperty('request_timeout');
  });

  it('fncall_prompt_type / use_raw_api pick the mode; a contradicting fncallMode or a per-call switch is refused', async () => {
    expect(createChatModel({ baseURL: server.url, generateCfg: { fncall_prompt_type: 'qwen' } }).fncallMode).toBe(
      'qwen',
    );
    expect(createChatModel({ baseURL: server.url, generateCfg: { use_raw_api: false } }).fncallMode).toBe('nous');
    expect(() =>
      createChatModel({ baseURL: server.url, fncallMode: 'native', generateCfg: { fncall_prompt_type: 'qwen' } }),
    ).toThrow(/fncallMode 'native' contradicts generate_cfg \(fncall_prompt_type: 'qwen'/);
    const native = createChatModel({ baseURL: server.url, apiKey: 'k' });
    await expect(collectChat(native, { messages: user('hi'), cfg: { fncall_prompt_type: 'nous' } })).rejects.toThrow(
      /set it when the model is made/,
    );
    expect(() => createChatModel({ baseURL: server.url, generateCfg: { cache_dir: '/tmp/x' } })).toThrow(
      /cache_dir.*not supported/,
    );
  });

  it("lang on the model is honoured by chat() (the prompt's language), unless the call gives one", async () => {
    server.setScenario({ fallback: 'echo' });
    const model = (lang?: 'zh') =>
      createChatModel({
        model: 'm',
        baseURL: server.url,
        apiKey: 'k',
        fncallMode: 'qwen',
        generateCfg: lang ? { lang } : {},
      });
    await collectChat(model('zh'), { messages: user('weather?'), functions: [weather] });
    await collectChat(model(), { messages: user('weather?'), functions: [weather] });
    await collectChat(model('zh'), { messages: user('weather?'), functions: [weather], lang: 'en' });
    const systems = server.requests.map((r) => r.body.messages[0].content as string);
    expect(systems[0]).toMatch(/^# 工具/);
    expect(systems[1]).toMatch(/^# Tools/);
    expect(systems[2]).toMatch(/^# Tools/);
  });
});

describe("the qwen template's defaults and its answer", () => {
  it('parallel_function_calls unset is the single-call template and keeps only the first call (upstream default)', async () => {
    server.setScenario({
      replies: [
        {
          content:
            '✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Oslo"}\n✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Rome"}',
        },
      ],
    });
    const model = createChatModel({ model: 'm', baseURL: server.url, apiKey: 'k', fncallMode: 'qwen' });
    const { result } = await collectChat(model, { messages: user('Oslo and Rome?'), functions: [weather] });
    expect(result.messages.filter((m) => m.function_call).map((m) => m.function_call!.arguments)).toEqual([
      '{"city": "Oslo"}',
    ]);
    const system = server.requests[0]!.body.messages[0].content as string;
    expect(system).not.toContain('tool 2'); // the parallel template lists tool 1, tool 2, … tool N
    // nous: upstream's template always allows several calls; unset keeps them all.
    server.setScenario({
      replies: [
        {
          content:
            '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome"}}\n</tool_call>',
        },
      ],
    });
    const nous = createChatModel({ model: 'm', baseURL: server.url, apiKey: 'k', fncallMode: 'nous' });
    const both = await collectChat(nous, { messages: user('Oslo and Rome?'), functions: [weather] });
    expect(both.result.messages.filter((m) => m.function_call)).toHaveLength(2);
  });

  it('the answer after a tool result carries no stray ": " (the prompt ends at ✿RETURN✿), streamed or stored', async () => {
    server.setScenario({
      replies: [
        { content: '✿FUNCTION✿: get_weather\n✿ARGS✿: {"city": "Oslo"}' },
        { content: ': It is sunny in Oslo.', chunkSize: 1 },
      ],
    });
    const bot = new FnCallAgent({
      llm: createChatModel({ model: 'm', baseURL: server.url, apiKey: 'k', fncallMode: 'qwen' }),
      functionList: [new GetWeather()],
    });
    const events = await collectEvents(bot.runEvents(user('Weather in Oslo?')));
    expect(text(events)).toBe('It is sunny in Oslo.');
    // The second request ended at ✿RETURN✿ (without its ": "), so the model wrote it.
    const prompt = server.requests[1]!.body.messages.at(-1).content as string;
    expect(prompt.endsWith('✿RESULT✿: Oslo: 21°C, sunny\n✿RETURN✿')).toBe(true);
    server.reset();
    const out = await bot.runNonStream(user('Weather in Oslo?'));
    expect(out.at(-1)).toMatchObject({ role: 'assistant', content: 'It is sunny in Oslo.' });
  });
});

describe('native (use_raw_api) history without tools', () => {
  it('sends earlier tool calls back as tool_calls and tool messages, not as user text', async () => {
    server.setScenario({ fallback: { content: 'It was sunny.' } });
    const bot = new FnCallAgent({
      llm: createChatModel({ model: 'm', baseURL: server.url, apiKey: 'k', fncallMode: 'native' }),
    });
    await bot.runNonStream([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
        extra: { function_id: 'c1' },
      },
      { role: 'function', name: 'get_weather', content: 'sunny', extra: { function_id: 'c1' } },
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'And yesterday?' },
    ]);
    const body = server.requests[0]!.body;
    expect(body.tools).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      { role: 'assistant', content: 'Sunny.' },
      { role: 'user', content: 'And yesterday?' },
    ]);
  });
});

describe('agents made from code', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('QWEN_AGENT_MAX_LLM_CALL_PER_RUN caps their model calls (upstream reads it in settings.py)', async () => {
    delete process.env.MAX_LLM_CALL_PER_RUN;
    process.env.QWEN_AGENT_MAX_LLM_CALL_PER_RUN = '3';
    server.setScenario({ fallback: { toolCalls: [{ name: 'get_weather', arguments: '{"city":"Loop"}' }] } });
    const bot = new FnCallAgent({
      llm: createChatModel({ model: 'm', baseURL: server.url, apiKey: 'k' }),
      functionList: [new GetWeather()],
    });
    expect(bot.maxLlmCalls).toBe(3);
    const events = await collectEvents(bot.runEvents(user('loop')));
    expect(server.requests).toHaveLength(3);
    expect(ofType(events, 'run-end')[0]).toMatchObject({ reason: 'max-iterations', llmCalls: 3 });
  });

  it("refuses upstream's option names, naming this port's", () => {
    const llm = createChatModel({ baseURL: server.url });
    const options = (extra: Record<string, unknown>) =>
      ({ llm, ...extra }) as ConstructorParameters<typeof FnCallAgent>[0];
    expect(() => new FnCallAgent(options({ function_list: ['calculator'] }))).toThrow(
      /"function_list".*"functionList"/,
    );
    expect(() => new FnCallAgent(options({ system_message: 'Be brief.' }))).toThrow(/"systemMessage"/);
    expect(() => new Assistant(options({ rag_cfg: {} }))).toThrow(/"ragCfg"/);
    const members = [new FnCallAgent({ llm, name: 'Ann' }), new FnCallAgent({ llm, name: 'Bo' })];
    const group = (extra: Record<string, unknown>) =>
      new GroupChat({ llm, agents: members, ...extra } as ConstructorParameters<typeof GroupChat>[0]);
    expect(() => group({ agent_selection_method: 'round_robin' })).toThrow(/"agent_selection_method".*"selection"/);
    // Upstream's other form of agents, a group config dict ({background, agents: [role configs]}), is refused saying
    // what to pass instead (it was a TypeError from inside the constructor).
    const config = { background: 'A book club', agents: [{ name: 'Ann', description: 'Reads a lot' }] };
    expect(() => group({ agents: config })).toThrow(/group config dict.*Assistant/);
  });

  it("refuses upstream's run arguments given as run options, naming where they go here, before any model call", async () => {
    server.setScenario({ fallback: { content: 'ok' } });
    const bot = new FnCallAgent({ llm: createChatModel({ model: 'm', baseURL: server.url, apiKey: 'k' }) });
    const run = (extra: Record<string, unknown>) =>
      bot.runNonStream(user('hi'), extra as Parameters<typeof bot.runNonStream>[1]);
    // FnCallAgent._run reads kwargs['seed'] into the call's generate_cfg; here it is generateCfg.seed.
    await expect(run({ seed: 7 })).rejects.toThrow(/"seed".*generateCfg: \{ seed \}/);
    await expect(run({ max_round: 2 })).rejects.toThrow(/"max_round".*maxRound/);
    await expect(run({ need_batch_response: false })).rejects.toThrow(/"need_batch_response".*maxRound/);
    await expect(run({ mentioned_agents_name: ['a'] })).rejects.toThrow(/"mentioned_agents_name".*@name mention/);
    await expect(run({ full_article: true })).rejects.toThrow(/"full_article".*fullArticle/);
    expect(() => bot.runEvents(user('hi'), { capture_later: 'x' } as never)).toThrow(/"capture_later".*captureLater/);
    expect(server.requests).toHaveLength(0);
    await run({ generateCfg: { seed: 7 } });
    expect(server.requests[0]!.body.seed).toBe(7);
  });

  it('Assistant.run(messages, {knowledge}) puts the given knowledge in the system message and searches nothing', async () => {
    server.setScenario({ fallback: { content: 'Paris.' } });
    const bot = new Assistant({
      llm: createChatModel({ model: 'm', baseURL: server.url, apiKey: 'k' }),
      systemMessage: 'Answer from the knowledge.',
    });
    const events = await collectEvents(
      bot.runEvents(user('Capital of France?'), { knowledge: 'The capital of France is Paris.' }),
    );
    expect(ofType(events, 'retrieval')).toEqual([]);
    const system = server.requests[0]!.body.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toBe(
      'Answer from the knowledge.\n\n# Knowledge Base\n\n## The content provided:\n\n```\nThe capital of France is Paris.\n```',
    );
    // The retrieval tool's JSON form is one section per document, as retrieved knowledge is.
    await bot.runNonStream(user('Capital?'), {
      knowledge: JSON.stringify([{ url: '/docs/france.pdf', text: ['Paris is the capital.', 'It is large.'] }]),
    });
    expect(server.requests[1]!.body.messages[0].content).toContain(
      '## The content from [file](france.pdf):\n\n```\nParis is the capital.\n\n...\n\nIt is large.\n```',
    );
  });
});
