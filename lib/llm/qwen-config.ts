// Qwen-Agent's `llm` config dict ({model, model_server, api_key, generate_cfg, model_type}) as a ChatModel, the way
// upstream's get_chat_model picks a model class: model_type when given, else deduced from model_server and the model
// name. Every model this port has speaks the OpenAI wire format, so DashScope models are reached through DashScope's
// OpenAI-compatible mode; the model types that need another protocol or a local runtime are refused, naming what to
// pass instead.
import { qwenAgentEnv, type QwenAgentEnv } from '../config';
import type { FncallMode } from '../protocol/enums';
import { ModelInputError } from './errors';
import type { ModelConfig } from './model-config';
import { checkGenerateCfg } from './generate-cfg';
import type { GenerateCfg } from './model';

/** Qwen-Agent's llm config, as its README and examples write it. */
export interface QwenLlmConfig {
  model?: string;
  /** 'oai', 'qwenvl_oai', 'qwen_dashscope', 'qwenvl_dashscope' (deduced when left out). */
  model_type?: string;
  /** An OpenAI-compatible server's base URL (ending in /v1), or 'dashscope'. */
  model_server?: string;
  /** Other names of model_server that upstream also reads. */
  api_base?: string;
  base_url?: string;
  /** Default: OPENAI_API_KEY (oai types) or DASHSCOPE_API_KEY (DashScope types), else 'EMPTY'. */
  api_key?: string;
  /** DashScope's API base (default DASHSCOPE_HTTP_URL, else DashScope's own); its compatible mode sits beside it. */
  base_http_api_url?: string;
  generate_cfg?: GenerateCfg;
  [key: string]: unknown;
}

/** DashScope's OpenAI-compatible endpoint (upstream sends model_server 'dashscope' of an 'oai' model here too). */
export const DASHSCOPE_COMPATIBLE_URL = 'https://dashscope.aliyuncs.com/compatible-mode/v1';

type Supported = 'oai' | 'qwenvl_oai' | 'qwen_dashscope' | 'qwenvl_dashscope';
const SUPPORTED: readonly Supported[] = ['oai', 'qwenvl_oai', 'qwen_dashscope', 'qwenvl_dashscope'];

const HOW_INSTEAD =
  "pass model_type 'oai' with model_server set to an OpenAI-compatible server's URL (ending in /v1), or a ChatModel " +
  '(createChatModel)';

/** Upstream's other model types, and why this port has none of them. */
const REFUSED: Record<string, string> = {
  azure: `Azure's own client (api_version, deployments) is not built in: ${HOW_INSTEAD}, e.g. the deployment's .../openai/v1 endpoint`,
  qwenaudio_dashscope: `DashScope's audio models are not supported: ${HOW_INSTEAD}`,
  qwenvlo_dashscope: `DashScope's image-generating models are not supported: ${HOW_INSTEAD}`,
  qwenomni_oai: `omni models (audio and video in and out) are not supported: ${HOW_INSTEAD}`,
  openvino: `OpenVINO models run in Python only: serve the model behind an OpenAI-compatible server and ${HOW_INSTEAD}`,
  transformers: `transformers models run in Python only: serve the model (vLLM, SGLang, llama.cpp) and ${HOW_INSTEAD}; a GGUF file runs in process with createChatModel({ local: { file } })`,
};

/** Is `value` a config dict rather than a ChatModel? */
export function isQwenLlmConfig(value: unknown): value is QwenLlmConfig {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { chat?: unknown }).chat !== 'function'
  );
}

/** Which model class upstream's get_chat_model would make of `cfg` (refused ones throw, naming what to pass). */
export function modelTypeOf(cfg: QwenLlmConfig): Supported {
  const given = cfg.model_type;
  if (given !== undefined) {
    if ((SUPPORTED as readonly string[]).includes(given)) return given as Supported;
    if (REFUSED[given]) throw new ModelInputError(`llm.model_type '${given}': ${REFUSED[given]}.`);
    throw new ModelInputError(`llm.model_type must be one of ${SUPPORTED.join(', ')} (got '${given}').`);
  }
  if (cfg.azure_endpoint !== undefined) throw new ModelInputError(`llm.azure_endpoint: ${REFUSED.azure}.`);
  if (typeof cfg.model_server === 'string' && cfg.model_server.trim().startsWith('http')) return 'oai';
  const model = (cfg.model ?? '').toLowerCase();
  if (model.includes('-vl')) return 'qwenvl_dashscope';
  if (model.includes('-audio')) throw new ModelInputError(`llm.model '${cfg.model}': ${REFUSED.qwenaudio_dashscope}.`);
  if (model.includes('qwen')) return 'qwen_dashscope';
  throw new ModelInputError(
    `llm config ${JSON.stringify(cfg.model ?? '')} names no model service: give model_server (an OpenAI-compatible ` +
      "server's URL ending in /v1, or 'dashscope' with model_type 'oai') or model_type.",
  );
}

/**
 * The model configuration Qwen-Agent's llm config dict (or a model name, as upstream's get_chat_model takes) stands
 * for; refused configs throw here. The function-call mode follows upstream: the tools API when
 * generate_cfg.use_raw_api is true (or QWEN_AGENT_USE_RAW_API, or a qwen_dashscope model that does not say), else
 * the prompt template generate_cfg.fncall_prompt_type names ('nous' by default).
 */
export function qwenModelConfig(
  cfg: QwenLlmConfig | string = 'qwen-plus',
  env: QwenAgentEnv = qwenAgentEnv(),
): ModelConfig & { model: string; fncallMode: FncallMode } {
  const config: QwenLlmConfig = typeof cfg === 'string' ? { model: cfg } : cfg;
  if (config.cache_dir !== undefined)
    throw new ModelInputError('llm.cache_dir (a disk cache of model answers) is not supported: remove it.');
  const type = modelTypeOf(config);
  const generateCfg: GenerateCfg = { ...config.generate_cfg };
  checkGenerateCfg(generateCfg);
  const dashscope = type === 'qwen_dashscope' || type === 'qwenvl_dashscope';
  // The keys that pick the mode are read here, as upstream reads them when the model is made.
  const rawApi = generateCfg.use_raw_api ?? (type === 'qwen_dashscope' ? true : env.useRawApi);
  const fncallMode: FncallMode = rawApi ? 'native' : (generateCfg.fncall_prompt_type ?? 'nous');
  delete generateCfg.use_raw_api;
  delete generateCfg.fncall_prompt_type;
  if ((type === 'qwenvl_oai' || type === 'qwenvl_dashscope') && generateCfg.multimodal === undefined)
    generateCfg.multimodal = true;
  const model = config.model?.trim() || (dashscope ? 'qwen-max' : 'gpt-4o-mini');
  return {
    model,
    baseURL: dashscope ? dashscopeCompatibleUrl(config, env) : oaiBaseUrl(config),
    apiKey: (config.api_key?.trim() || (dashscope ? env.dashscopeApiKey : env.openaiApiKey) || 'EMPTY').trim(),
    fncallMode,
    generateCfg,
    maxInputTokens: env.maxInputTokens,
  };
}

/** api_base, base_url or model_server, in upstream's order; 'dashscope' is DashScope's compatible mode. */
function oaiBaseUrl(cfg: QwenLlmConfig): string | undefined {
  const server = (cfg.api_base || cfg.base_url || cfg.model_server || '').trim();
  if (server === 'dashscope') return DASHSCOPE_COMPATIBLE_URL;
  return server || undefined;
}

/** DashScope's compatible mode beside its API base (…/api/v1 -> …/compatible-mode/v1), when one is given. */
function dashscopeCompatibleUrl(cfg: QwenLlmConfig, env: QwenAgentEnv): string {
  const base = (cfg.base_http_api_url || env.dashscopeHttpUrl || '').trim().replace(/\/+$/, '');
  if (!base) return DASHSCOPE_COMPATIBLE_URL;
  const compatible = base.replace(/\/api\/v1$/, '/compatible-mode/v1');
  if (compatible === base)
    throw new ModelInputError(
      `llm.base_http_api_url (or DASHSCOPE_HTTP_URL) must be DashScope's API base ending in /api/v1 (got '${base}').`,
    );
  return compatible;
}
