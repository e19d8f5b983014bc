// Differential test against Qwen-Agent (QwenLM/Qwen-Agent at 31a4d36): the configurations of upstream's own examples
// run unchanged against the scripted server, and each request our port sends is compared with the request upstream's
// code would send for the same configuration and the same model answers. Upstream cannot run here (PyPI is out of
// reach), so each expected request is written out by hand from reading its code; the comment above each expectation
// says which code gives it. What differs on purpose is said there too, and listed in docs/qwen-agent.md.
//
// What every expectation shares, from upstream's code:
// - BaseChatModel.chat (llm/base.py) adds `seed` (random in [0, 2^30]) when generate_cfg has none, pops `lang`,
//   `max_input_tokens` and `use_raw_api`, and adds no system message (DEFAULT_SYSTEM_MESSAGE is '').
// - TextChatAtOAI._chat_stream (llm/oai.py) calls client.chat.completions.create(model=…, messages=…, stream=True,
//   **generate_cfg): the body is model, messages, stream and what is left of generate_cfg. Our port adds
//   stream_options {include_usage: true} (it reports usage per call); that is the one field upstream does not send.
// - Messages are sent as text (format_as_text_message), each {role, content} with nothing else.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Assistant, ReActChat, type Message } from '../../lib/agent';
import { getChatModel } from '../../lib/llm';
import type { FunctionDef } from '../../lib/llm/schema';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { BaseTool } from '../../tools';

let server: ModelServer;
beforeAll(async () => {
  server = await createModelServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());
const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
});

/** The body fields upstream's openai call carries beside messages (and tools, in raw mode): model, stream, seed,
 *  and what generate_cfg leaves; ours adds stream_options only. */
function expectEnvelope(body: Record<string, unknown>, fields: Record<string, unknown>) {
  const { messages: _messages, tools: _tools, seed, stream_options, ...rest } = body;
  expect(Number.isInteger(seed) && (seed as number) >= 0 && (seed as number) <= 2 ** 30).toBe(true);
  expect(stream_options).toEqual({ include_usage: true });
  expect(rest).toEqual({ stream: true, ...fields });
}

/** DashScope as upstream's qwen_dashscope model reaches it (DASHSCOPE_HTTP_URL, DASHSCOPE_API_KEY): here the
 *  scripted server, whose /compatible-mode/v1 our port calls. */
function dashscopeHere() {
  process.env.DASHSCOPE_HTTP_URL = server.url.replace(/\/v1$/, '/api/v1');
  process.env.DASHSCOPE_API_KEY = 'sk-dashscope-test';
  delete process.env.QWEN_AGENT_USE_RAW_API;
}

// examples/function_calling.py's function, as the example declares it.
const getCurrentWeather: FunctionDef = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  parameters: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location'],
  },
};
// json.dumps(…, ensure_ascii=False) of the function: Python's separators (", " and ": "), keys in declared order.
const WEATHER_PARAMETERS_JSON =
  '{"type": "object", "properties": {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}';
const WEATHER_JSON = `{"name": "get_current_weather", "description": "Get the current weather in a given location", "parameters": ${WEATHER_PARAMETERS_JSON}}`;
const QUESTION = "What's the weather like in San Francisco?";
const RESULT = '{"location": "San Francisco", "temperature": "72", "unit": "fahrenheit"}';

describe('examples/function_calling.py: llm.chat with functions, then the function result', () => {
  // The example's "own model service compatible with OpenAI API" config: get_chat_model sees an http model_server,
  // so model_type 'oai' (TextChatAtOAI); use_raw_api is off (QWEN_AGENT_USE_RAW_API unset), so the fncall prompt
  // of fncall_prompt_type (BaseFnCallModel.__init__) writes the tools into the messages, and generate_cfg loses
  // fncall_prompt_type there.
  const config = (type: 'nous' | 'qwen') => ({
    model: 'Qwen/qwen2.5-7b-instruct',
    model_server: server.url,
    api_key: 'EMPTY',
    generate_cfg: { fncall_prompt_type: type },
  });

  it("fncall_prompt_type 'nous': the <tools> system prompt, then <tool_call> and <tool_response> in the history", async () => {
    delete process.env.QWEN_AGENT_USE_RAW_API;
    server.setScenario({
      replies: [
        {
          content:
            '<tool_call>\n{"name": "get_current_weather", "arguments": {"location": "San Francisco, CA"}}\n</tool_call>',
        },
        { content: 'It is 72°F in San Francisco.' },
      ],
    });
    const llm = getChatModel(config('nous'));
    const messages: Message[] = [{ role: 'user', content: QUESTION }];
    const first = await llm.chat({ messages, functions: [getCurrentWeather] });
    // NousFnCallPrompt.postprocess_fncall_messages: one function_call message, arguments json.dumps'd, id '1'.
    expect(first.messages).toEqual([
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_current_weather', arguments: '{"location": "San Francisco, CA"}' },
        extra: { function_id: '1' },
      },
    ]);
    messages.push(...first.messages, { role: 'function', name: 'get_current_weather', content: RESULT });
    const second = await llm.chat({ messages, functions: [getCurrentWeather] });
    expect(second.messages).toEqual([{ role: 'assistant', content: 'It is 72°F in San Francisco.' }]);

    const [one, two] = server.requests.map((r) => r.body);
    // stream=True and the seed; nothing else is left in generate_cfg (fncall_prompt_type was deleted at init, and
    // _chat_with_functions deletes parallel_function_calls / function_choice / thought_in_content).
    expectEnvelope(one, { model: 'Qwen/qwen2.5-7b-instruct' });
    expectEnvelope(two, { model: 'Qwen/qwen2.5-7b-instruct' });
    expect(one.tools).toBeUndefined();
    // NousFnCallPrompt.preprocess_fncall_messages: no system message given, so one is added holding the template
    // with one json.dumps({'type': 'function', 'function': f}) line per function inside <tools></tools>, and the
    // call format. The template's sentences are ours (the markers and layout are the format's and match).
    const system = one.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^# Tools\n\n/);
    expect(system.content).toContain(`\n<tools>\n{"type": "function", "function": ${WEATHER_JSON}}\n</tools>\n`);
    expect(
      system.content.endsWith('<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'),
    ).toBe(true);
    expect(one.messages.slice(1)).toEqual([{ role: 'user', content: QUESTION }]);
    // The second call: the function_call message becomes assistant text '<tool_call>\n' + json.dumps({'name', 'arguments':
    // json5.loads(arguments)}) + '\n</tool_call>', and the function result a user message '<tool_response>\n…\n</tool_response>'.
    expect(two.messages).toEqual([
      system,
      { role: 'user', content: QUESTION },
      {
        role: 'assistant',
        content:
          '<tool_call>\n{"name": "get_current_weather", "arguments": {"location": "San Francisco, CA"}}\n</tool_call>',
      },
      { role: 'user', content: `<tool_response>\n${RESULT}\n</tool_response>` },
    ]);
  });

  it("fncall_prompt_type 'qwen': the single-call ✿ template, its stop words, and the continued assistant turn", async () => {
    delete process.env.QWEN_AGENT_USE_RAW_API;
    server.setScenario({
      replies: [
        { content: '✿FUNCTION✿: get_current_weather\n✿ARGS✿: {"location": "San Francisco, CA"}' },
        { content: ': It is 72°F in San Francisco.' },
      ],
    });
    const llm = getChatModel(config('qwen'));
    const messages: Message[] = [{ role: 'user', content: QUESTION }];
    const first = await llm.chat({ messages, functions: [getCurrentWeather] });
    // QwenFnCallPrompt.postprocess_fncall_messages: the call with its arguments as written. Upstream leaves `extra`
    // unset on it (and FnCallAgent then fails reading function_id); ours numbers it '1' (docs/qwen-agent.md).
    expect(first.messages).toEqual([
      {
        role: 'assistant',
        content: '',
        function_call: { name: 'get_current_weather', arguments: '{"location": "San Francisco, CA"}' },
        extra: { function_id: '1' },
      },
    ]);
    messages.push(...first.messages, { role: 'function', name: 'get_current_weather', content: RESULT });
    const second = await llm.chat({ messages, functions: [getCurrentWeather] });
    // postprocess removes the ': ' the continued turn starts with.
    expect(second.messages).toEqual([{ role: 'assistant', content: 'It is 72°F in San Francisco.' }]);

    const [one, two] = server.requests.map((r) => r.body);
    // BaseFnCallModel.__init__ adds FN_STOP_WORDS to generate_cfg['stop'] for the qwen prompt: sent as `stop`.
    expectEnvelope(one, { model: 'Qwen/qwen2.5-7b-instruct', stop: ['✿RESULT✿', '✿RETURN✿'] });
    expectEnvelope(two, { model: 'Qwen/qwen2.5-7b-instruct', stop: ['✿RESULT✿', '✿RETURN✿'] });
    // FN_CALL_TEMPLATE['en'] (parallel_function_calls defaults to False in BaseFnCallModel._preprocess_messages):
    // '# Tools' heading, then get_function_description: '### {name_for_human}\n\n{name_for_model}: {description}
    // Parameters: {json.dumps(parameters)} {args_format}', then the single-call command list.
    const system = one.messages[0];
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^# Tools\n\n## .*\n\n### get_current_weather\n\nget_current_weather: /);
    expect(system.content).toContain(
      `get_current_weather: Get the current weather in a given location Parameters: ${WEATHER_PARAMETERS_JSON}`,
    );
    const commands = system.content.split('\n').filter((l: string) => /^✿[A-Z]+✿: /.test(l));
    expect(commands.map((l: string) => l.slice(0, l.indexOf(':')))).toEqual([
      '✿FUNCTION✿',
      '✿ARGS✿',
      '✿RESULT✿',
      '✿RETURN✿',
    ]);
    expect(one.messages.slice(1)).toEqual([{ role: 'user', content: QUESTION }]);
    // The second call: the call and its result are written into one assistant turn ('✿FUNCTION✿: …\n✿ARGS✿: …',
    // '\n✿RESULT✿: ' + result + '\n✿RETURN✿: '), whose trailing ': ' is removed; the turn is then folded into the
    // user message before it with '\n\n' (simulate_response_completion_with_chat), for the model to continue.
    expect(two.messages).toEqual([
      system,
      {
        role: 'user',
        content: `${QUESTION}\n\n✿FUNCTION✿: get_current_weather\n✿ARGS✿: {"location": "San Francisco, CA"}\n✿RESULT✿: ${RESULT}\n✿RETURN✿`,
      },
    ]);
  });

  it("fncall_prompt_type 'qwen': a call without functions sends the ✿ stop words too, the config's own first, the call's last", async () => {
    delete process.env.QWEN_AGENT_USE_RAW_API;
    server.setScenario({ fallback: { content: 'Hello.' } });
    const llm = getChatModel({ ...config('qwen'), generate_cfg: { fncall_prompt_type: 'qwen', stop: ['END'] } });
    await llm.chat({ messages: [{ role: 'user', content: 'Hi' }], cfg: { stop: ['Observation:'] } });
    await llm.chat({
      messages: [{ role: 'user', content: 'Hi' }],
      functions: [getCurrentWeather],
      cfg: { function_choice: 'none' },
    });
    // BaseFnCallModel.__init__ puts FN_STOP_WORDS into the model's own generate_cfg['stop'] (after the config's), so
    // every call carries them, with functions or without (function_choice 'none' too); merge_generate_cfgs then
    // appends a call's own stop words.
    const [one, two] = server.requests.map((r) => r.body);
    expectEnvelope(one, {
      model: 'Qwen/qwen2.5-7b-instruct',
      stop: ['END', '✿RESULT✿', '✿RETURN✿', 'Observation:'],
    });
    expectEnvelope(two, { model: 'Qwen/qwen2.5-7b-instruct', stop: ['END', '✿RESULT✿', '✿RETURN✿'] });
    expect(one.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });
});

class AmapWeather extends BaseTool {
  name = 'amap_weather';
  description = 'Weather of a district (a stand-in: the real one calls AMap)';
  parameters = {
    type: 'object',
    properties: { location: { type: 'string', description: 'The district' } },
    required: ['location'],
  };
  async call(params: string) {
    const { location } = this.parseArgs<{ location: string }>(params);
    return `${location}：晴，25°C`;
  }
}

class ImageGen extends BaseTool {
  name = 'image_gen';
  description = 'Draws a picture from a description (a stand-in)';
  parameters = {
    type: 'object',
    properties: { prompt: { type: 'string', description: 'What to draw' } },
    required: ['prompt'],
  };
  async call() {
    return 'https://example.com/picture.png';
  }
}

describe('examples/assistant_weather_bot.py: an Assistant on {model: "qwen-max"}', () => {
  it('goes to DashScope with the tools API, and sends the call and its result back in the wire format', async () => {
    // get_chat_model({'model': 'qwen-max'}): no model_type, no model_server, 'qwen' in the name: qwen_dashscope,
    // whose BaseChatModel.__init__ sets use_raw_api (no use_raw_api in generate_cfg). raw_chat sends the functions
    // as tools=[{'type': 'function', 'function': f}] and messages as they are (no fncall prompt). Upstream calls
    // DashScope's own API (dashscope.Generation.call, with result_format='message' and incremental_output=True,
    // parameters of that API); our port calls DashScope's OpenAI-compatible mode beside it, so those two are not
    // sent and the rest is the same.
    dashscopeHere();
    server.setScenario({
      replies: [
        { toolCalls: [{ id: 'call_w', name: 'amap_weather', arguments: '{"location": "海淀区"}' }] },
        { content: '海淀区今天晴，25°C。' },
      ],
    });
    const system = '你是天气助手：查询天气，需要时画图。';
    const bot = new Assistant({
      llm: { model: 'qwen-max' },
      name: '天气助手',
      description: '查询天气和画图',
      systemMessage: system,
      functionList: [new ImageGen(), new AmapWeather()],
    });
    const out = await bot.runNonStream([{ role: 'user', content: '海淀区天气' }]);
    expect(out.at(-1)).toMatchObject({ role: 'assistant', content: '海淀区今天晴，25°C。', name: '天气助手' });

    const [one, two] = server.requests;
    expect(one!.path).toBe('/compatible-mode/v1/chat/completions');
    expect(one!.headers.authorization).toBe('Bearer sk-dashscope-test'); // DASHSCOPE_API_KEY
    expectEnvelope(one!.body, { model: 'qwen-max' });
    // Function.function is {name, description, parameters}, in function_list order.
    const tools = [new ImageGen(), new AmapWeather()].map((t) => ({ type: 'function', function: t.function }));
    expect(one!.body.tools).toEqual(tools);
    // Agent.run puts the system message first; Assistant adds no knowledge block (Memory.run finds no files).
    const asked = [
      { role: 'system', content: system },
      { role: 'user', content: '海淀区天气' },
    ];
    expect(one!.body.messages).toEqual(asked);
    // _conv_qwen_agent_messages_to_oai: the call as an assistant message with tool_calls (its id from the server),
    // the result as a 'tool' message. Upstream leaves the assistant's content out and writes the result's id as `id`
    // (copying name and extra along); ours sends content null and `tool_call_id`, as OpenAI's format has them
    // (docs/qwen-agent.md).
    expectEnvelope(two!.body, { model: 'qwen-max' });
    expect(two!.body.tools).toEqual(tools);
    expect(two!.body.messages).toEqual([
      ...asked,
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_w', type: 'function', function: { name: 'amap_weather', arguments: '{"location": "海淀区"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_w', content: '海淀区：晴，25°C' },
    ]);
  });
});

class CodeInterpreter extends BaseTool {
  // A stand-in with code_interpreter's name and parameters: the sandbox itself is tested elsewhere, and only the
  // requests are compared here.
  name = 'code_interpreter';
  description = 'Runs Python code (a stand-in)';
  parameters = {
    type: 'object',
    properties: { code: { description: 'The Python code.', type: 'string' } },
    required: ['code'],
  };
  // Takes a code block as the real one does.
  override parseArgs<T = Record<string, unknown>>(params: string | Record<string, unknown>): T {
    return { code: typeof params === 'string' ? params : String(params.code) } as T;
  }
  async call() {
    return 'stdout:\n         date  close\n0  2024-01-02  10.0';
  }
}

describe('examples/react_data_analysis.py: ReActChat on DashScope with a file', () => {
  it('one user message holding the ReAct prompt with the file named in the question, stopping at Observation:', async () => {
    // get_chat_model: model_server 'dashscope' is not http, 'qwen' in the name: qwen_dashscope (use_raw_api). ReActChat
    // calls _call_llm(messages=text_messages) without functions and with extra_generate_cfg stop ['Observation:',
    // 'Observation:\n'] (ReActChat.__init__), so the request is model, messages, stop, seed, stream.
    dashscopeHere();
    const query = 'Show the first rows of the file, then plot the closing price.';
    const thought = 'I will look at the data first.';
    const code = '```py\nimport pandas as pd\nprint(pd.read_csv("stock_prices.csv").head())\n```';
    server.setScenario({
      replies: [
        { content: `${thought}\nAction: code_interpreter\nAction Input: ${code}` },
        { content: 'I now know the final answer.\nFinal Answer: The data starts on 2024-01-02 at 10.0.' },
      ],
    });
    const bot = new ReActChat({
      llm: { model: 'qwen-max', model_server: 'dashscope', api_key: 'sk-react' },
      name: 'code interpreter',
      description: 'Runs code to answer',
      functionList: [new CodeInterpreter()],
    });
    const out = await bot.runNonStream([
      { role: 'user', content: [{ text: query }, { file: '/data/uploads/stock_prices.csv' }] },
    ]);
    expect(String(out.at(-1)!.content)).toMatch(/Final Answer: The data starts on 2024-01-02 at 10.0.$/);

    const [one, two] = server.requests;
    expect(one!.headers.authorization).toBe('Bearer sk-react');
    expectEnvelope(one!.body, { model: 'qwen-max', stop: ['Observation:', 'Observation:\n'] });
    expect(one!.body.tools).toBeUndefined();
    // _prepend_react_prompt: format_as_text_message(add_upload_info=True) writes the file into the question as
    // '(Uploaded [file](stock_prices.csv)) ', then PROMPT_REACT takes it as {query}; TOOL_DESC gives each tool as
    // '{name}: …{description} Parameters: {json.dumps(parameters)} {args_format}' and the names go in '[…]'.
    // PROMPT_REACT's sentences are ours; the Question/Thought/Action/Action Input/Observation lines are the format.
    expect(one!.body.messages).toHaveLength(1);
    const prompt = one!.body.messages[0];
    expect(prompt.role).toBe('user');
    expect(prompt.content).toContain(
      'Runs Python code (a stand-in) Parameters: {"type": "object", "properties": {"code": {"description": "The Python code.", "type": "string"}}, "required": ["code"]}',
    );
    expect(prompt.content).toContain('one of [code_interpreter]');
    expect(prompt.content.endsWith(`\nQuestion: (Uploaded [file](stock_prices.csv)) ${query}\nThought: `)).toBe(true);
    // ReActChat._run: the prompt grows by thought + '\nAction: {action}\nAction Input: {action_input}' (a code block
    // on a line of its own) + '\nObservation: {observation}\nThought: '.
    expectEnvelope(two!.body, { model: 'qwen-max', stop: ['Observation:', 'Observation:\n'] });
    expect(two!.body.messages).toEqual([
      {
        role: 'user',
        content: `${prompt.content}${thought}\nAction: code_interpreter\nAction Input: \n${code}\nObservation: stdout:\n         date  close\n0  2024-01-02  10.0\nThought: `,
      },
    ]);
  });
});

class Clock extends BaseTool {
  name = 'current_time';
  description = 'The current time (a stand-in for the example MCP time server)';
  parameters = { type: 'object', properties: {} };
  async call() {
    return '2026-03-04 16:13';
  }
}

describe('examples/assistant_qwen3_coder.py and assistant_qwen3.5.py style generate_cfg', () => {
  it('use_raw_api, max_input_tokens and extra_body: the tools API, nothing of them sent but extra_body’s keys', async () => {
    // The examples' OpenAI-compatible variant: model_server is http, so 'oai'; generate_cfg {'use_raw_api': True,
    // 'max_input_tokens': 200000} (qwen3-coder) with qwen3.5's 'extra_body': {'chat_template_kwargs': {…}}.
    // BaseChatModel.__init__ pops use_raw_api; chat() pops max_input_tokens; raw_chat adds tools; the openai client
    // merges extra_body into the body's top level.
    delete process.env.QWEN_AGENT_USE_RAW_API;
    server.setScenario({
      replies: [
        { reasoning: 'The user wants the time.', toolCalls: [{ id: 't1', name: 'current_time', arguments: '{}' }] },
        { content: 'It is 16:13.' },
      ],
    });
    const bot = new Assistant({
      llm: {
        model: 'qwen3-coder-480b-a35b-instruct',
        model_server: server.url,
        api_key: 'EMPTY',
        generate_cfg: {
          use_raw_api: true,
          max_input_tokens: 200000,
          extra_body: { chat_template_kwargs: { enable_thinking: false } },
        },
      },
      functionList: [new Clock()],
      name: 'Qwen3-Coder Tool-calling Demo',
    });
    expect(bot.llm.fncallMode).toBe('native');
    const out = await bot.runNonStream([{ role: 'user', content: 'What time is it?' }]);
    expect(out.at(-1)).toMatchObject({ content: 'It is 16:13.' });
    const [one, two] = server.requests.map((r) => r.body);
    expectEnvelope(one, {
      model: 'qwen3-coder-480b-a35b-instruct',
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(one.tools).toEqual([{ type: 'function', function: new Clock().function }]);
    expect(one.messages).toEqual([{ role: 'user', content: 'What time is it?' }]);
    // The reasoning goes back with the call (_conv_qwen_agent_messages_to_oai keeps reasoning_content).
    expect(two.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'The user wants the time.',
        tool_calls: [{ id: 't1', type: 'function', function: { name: 'current_time', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 't1', content: '2026-03-04 16:13' },
    ]);
  });
});
