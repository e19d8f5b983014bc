// Qwen-Agent's llm config dict read as upstream's get_chat_model reads it: which model type, which server, which key,
// which function-call mode; the types this port does not have are refused naming what to pass.
import { describe, expect, it } from 'vitest';
import { qwenAgentEnv } from '../config';
import { DASHSCOPE_COMPATIBLE_URL, modelTypeOf, qwenModelConfig } from './qwen-config';

const env = qwenAgentEnv({});

describe('the model type, deduced as get_chat_model deduces it', () => {
  it('an http model_server is an OpenAI-compatible server; a qwen name without one is DashScope', () => {
    expect(modelTypeOf({ model: 'Qwen2.5-7B-Instruct', model_server: 'http://localhost:8000/v1' })).toBe('oai');
    expect(modelTypeOf({ model: 'qwen-max' })).toBe('qwen_dashscope');
    expect(modelTypeOf({ model: 'qwen-max', model_server: 'dashscope' })).toBe('qwen_dashscope');
    expect(modelTypeOf({ model: 'qwen-vl-max' })).toBe('qwenvl_dashscope');
    expect(modelTypeOf({ model: 'x', model_type: 'qwenvl_oai' })).toBe('qwenvl_oai');
  });

  it('refuses the types it does not have, and a config naming no service, saying what to pass', () => {
    expect(() => modelTypeOf({ model: 'gpt-4o', model_type: 'azure' })).toThrow(/model_type 'oai' with model_server/);
    expect(() => modelTypeOf({ model: 'gpt-4o', azure_endpoint: 'https://x.openai.azure.com' })).toThrow(
      /azure_endpoint.*model_type 'oai'/,
    );
    expect(() => modelTypeOf({ model: 'Qwen/Qwen2-7B', model_type: 'transformers' })).toThrow(/serve the model/);
    expect(() => modelTypeOf({ model: 'qwen-audio-turbo' })).toThrow(/audio models are not supported/);
    expect(() => modelTypeOf({ model: 'gpt-4o' })).toThrow(/give model_server/);
    expect(() => modelTypeOf({ model: 'm', model_type: 'nope' })).toThrow(/model_type must be one of oai/);
  });
});

describe('the model it makes', () => {
  it('an OpenAI-compatible server: its URL and key, the nous template unless use_raw_api, generate_cfg kept', () => {
    const config = qwenModelConfig(
      { model: 'Qwen3-8B', model_server: ' http://127.0.0.1:8000/v1 ', api_key: 'EMPTY', generate_cfg: { top_p: 0.8 } },
      env,
    );
    expect(config).toMatchObject({
      model: 'Qwen3-8B',
      baseURL: 'http://127.0.0.1:8000/v1',
      apiKey: 'EMPTY',
      fncallMode: 'nous',
      generateCfg: { top_p: 0.8 },
      maxInputTokens: 58_000,
    });
    const raw = qwenModelConfig({ model: 'm', model_server: 'http://h/v1', generate_cfg: { use_raw_api: true } }, env);
    expect(raw.fncallMode).toBe('native');
    expect(raw.generateCfg).toEqual({}); // read when the model is made, never sent
    const qwen = qwenModelConfig(
      { model: 'm', model_server: 'http://h/v1', generate_cfg: { fncall_prompt_type: 'qwen' } },
      env,
    );
    expect(qwen.fncallMode).toBe('qwen');
    expect(qwen.generateCfg).toEqual({});
  });

  it('a DashScope model goes to its OpenAI-compatible mode, with DASHSCOPE_API_KEY and the tools API (upstream sets use_raw_api)', () => {
    const dashscopeEnv = qwenAgentEnv({ DASHSCOPE_API_KEY: 'sk-ds', OPENAI_API_KEY: 'sk-oai' });
    expect(qwenModelConfig({ model: 'qwen-max-latest', model_type: 'qwen_dashscope' }, dashscopeEnv)).toMatchObject({
      baseURL: DASHSCOPE_COMPATIBLE_URL,
      apiKey: 'sk-ds',
      fncallMode: 'native',
    });
    // use_raw_api given wins over the DashScope default.
    expect(
      qwenModelConfig({ model: 'qwen-max', generate_cfg: { use_raw_api: false, fncall_prompt_type: 'qwen' } }, env)
        .fncallMode,
    ).toBe('qwen');
    // An oai model on 'dashscope' is the same endpoint, with OPENAI_API_KEY as upstream's oai class reads it.
    expect(
      qwenModelConfig({ model: 'qwen-plus', model_type: 'oai', model_server: 'dashscope' }, dashscopeEnv),
    ).toMatchObject({ baseURL: DASHSCOPE_COMPATIBLE_URL, apiKey: 'sk-oai', fncallMode: 'nous' });
    // DashScope's API base (another region) puts its compatible mode beside it.
    expect(
      qwenModelConfig(
        { model: 'qwen-max', base_http_api_url: 'https://dashscope-intl.aliyuncs.com/api/v1' },
        dashscopeEnv,
      ).baseURL,
    ).toBe('https://dashscope-intl.aliyuncs.com/compatible-mode/v1');
    expect(() =>
      qwenModelConfig({ model: 'qwen-max' }, qwenAgentEnv({ DASHSCOPE_HTTP_URL: 'https://example.com/other' })),
    ).toThrow(/ending in \/api\/v1/);
  });

  it('vision types send images; QWEN_AGENT_USE_RAW_API and the input budget come from the environment', () => {
    expect(qwenModelConfig({ model: 'qwen-vl-max' }, env).generateCfg).toEqual({ multimodal: true });
    const fromEnv = qwenAgentEnv({ QWEN_AGENT_USE_RAW_API: 'true', QWEN_AGENT_DEFAULT_MAX_INPUT_TOKENS: '6500' });
    expect(qwenModelConfig({ model: 'm', model_server: 'http://h/v1' }, fromEnv)).toMatchObject({
      fncallMode: 'native',
      maxInputTokens: 6500,
    });
    expect(qwenModelConfig('qwen-plus', env)).toMatchObject({ model: 'qwen-plus', fncallMode: 'native' });
  });

  it('refuses what it cannot do instead of ignoring it', () => {
    expect(() => qwenModelConfig({ model: 'qwen-max', cache_dir: '/tmp/c' }, env)).toThrow(/cache_dir.*not supported/);
    expect(() =>
      qwenModelConfig({ model: 'qwen-max', generate_cfg: { fncall_prompt_type: 'xml' as 'nous' } }, env),
    ).toThrow(/fncall_prompt_type must be 'nous' or 'qwen'/);
  });
});
