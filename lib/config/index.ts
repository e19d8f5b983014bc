// The one place that reads the environment. Everything else takes these values as arguments.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Pricing } from '../protocol/events';
import { FNCALL_MODES, LOCAL_SERVER_KINDS, type FncallMode, type LocalServerKind } from '../protocol/enums';
import { accessTokenProblem, hostNameOf } from './exposure.mjs';
import { parseImageHosts } from './image-hosts';
import { pluginsConfig, type PluginsConfig } from './plugins';
import { WEB_SEARCH_PROVIDERS, type WebSearchProviderName } from './web-search-providers';

export interface LlmEnvConfig {
  baseURL?: string;
  apiKey?: string;
  model?: string;
  fncallMode: FncallMode;
  maxRetries: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  maxInputTokens: number;
  /** RECORD_RAW_STREAM=1: every model call keeps the provider's SSE chunks in the run log (also per conversation). */
  recordRawStream: boolean;
  /** Whether the model is sent images (MODEL_VISION): 'auto' by its name (`*-vl-*`, `*vision*`, `gpt-4o*`…). */
  vision: VisionSetting;
  /** Whether new conversations give the model the images tools produce (TOOL_IMAGES_TO_MODEL; default off). */
  toolImages: boolean;
  /** CONVERSATION_TITLES: 'model' (default) has the conversation's model title it from its first exchange, in the
   *  background; 'message' keeps the first message's opening words. */
  titles: TitleSetting;
  /** OPENAI_IMAGE_MODEL: the model the environment's connection makes images with (POST {base URL}/images/generations,
   *  for image_gen); unset: that connection has no images endpoint. */
  imageModel?: string;
  /** The environment connection's prices per million tokens (OPENAI_PRICE_INPUT, OPENAI_PRICE_OUTPUT: both or
   *  neither) and context length (OPENAI_CONTEXT_LENGTH), for every model it serves. */
  rates: { pricing?: Pricing; contextLength?: number };
}

/** OPENAI_PRICE_INPUT / OPENAI_PRICE_OUTPUT (per million tokens) and OPENAI_CONTEXT_LENGTH. */
function ratesFrom(env: Env): LlmEnvConfig['rates'] {
  const price = (name: string): number | undefined => {
    const raw = env[name]?.trim();
    if (!raw) return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0)
      throw new ConfigError(`${name} must be a price per million tokens, a number >= 0 (got "${raw}")`);
    return value;
  };
  const input = price('OPENAI_PRICE_INPUT');
  const output = price('OPENAI_PRICE_OUTPUT');
  if ((input === undefined) !== (output === undefined))
    throw new ConfigError('Set both OPENAI_PRICE_INPUT and OPENAI_PRICE_OUTPUT (per million tokens), or neither');
  const rates: LlmEnvConfig['rates'] = {};
  if (input !== undefined && output !== undefined) rates.pricing = { inputPerMTok: input, outputPerMTok: output };
  const contextLength = intFrom(env, ['OPENAI_CONTEXT_LENGTH'], 0, { min: 1 });
  if (contextLength) rates.contextLength = contextLength;
  return rates;
}

export const TITLE_SETTINGS = ['model', 'message'] as const;
export type TitleSetting = (typeof TITLE_SETTINGS)[number];

function titlesFrom(value: string | undefined): TitleSetting {
  const v = (value ?? 'model').trim().toLowerCase() || 'model';
  if (!(TITLE_SETTINGS as readonly string[]).includes(v))
    throw new ConfigError(`CONVERSATION_TITLES must be model or message (got "${value}")`);
  return v as TitleSetting;
}

export const VISION_SETTINGS = ['auto', 'on', 'off'] as const;
export type VisionSetting = (typeof VISION_SETTINGS)[number];

function visionFrom(value: string | undefined): VisionSetting {
  const v = (value ?? 'auto').trim().toLowerCase() || 'auto';
  if (!(VISION_SETTINGS as readonly string[]).includes(v))
    throw new ConfigError(`MODEL_VISION must be auto, on or off (got "${value}")`);
  return v as VisionSetting;
}

export interface AppConfig {
  llm: LlmEnvConfig;
  maxLlmCallsPerRun: number;
  dataDir: string;
  rag: RagEnvConfig;
  documents: DocumentLimits;
  /** Images attached to messages (IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS). */
  images: { maxBytes: number; maxPixels: number };
  /** Worker threads that parse documents off the main thread (DOCUMENT_PARSE_WORKERS). */
  documentParseWorkers: number;
  codeInterpreter: CodeInterpreterConfig;
  mcp: McpEnvConfig;
  /** Where plugins come from (PLUGINS_DIR, SERVE_AGENT). */
  plugins: PluginsConfig;
  web: WebEnvConfig;
  telemetry: TelemetryEnvConfig;
  http: HttpEnvConfig;
  database: DatabaseEnvConfig;
  localModels: LocalModelsEnvConfig;
  models: ModelsEnvConfig;
  auth: AuthEnvConfig;
  /** Where uploads, parses and tool work files are kept: DATA_DIR, or an S3 bucket when S3_BUCKET is set. */
  s3?: S3EnvConfig;
}

// Document search.
export interface RagEnvConfig {
  /** Tokens of document passages put into one prompt (Qwen-Agent's max_ref_token). */
  maxRefTokens: number;
  /** Tokens per chunk (Qwen-Agent's parser_page_size). */
  parserPageSize: number;
  /** RAG_KEYGEN_STRATEGY / QWEN_AGENT_DEFAULT_RAG_KEYGEN_STRATEGY as written (checked where an Assistant is made):
   *  the keyword strategy of an Assistant whose ragCfg names none. */
  keygenStrategy?: string;
  /** RAG_SEARCHERS / QWEN_AGENT_DEFAULT_RAG_SEARCHERS as written (a list; checked where it is used). */
  searchers?: string;
  /** Chunks ParallelDocQA reads at once (PARALLEL_DOC_QA_CONCURRENCY). */
  parallelDocQaConcurrency: number;
  /** The model that makes embeddings on a connection's /embeddings (default: the chat model's name). */
  embeddingModel?: string;
}

/** Uploads and document parsing. */
export interface DocumentLimits {
  /** Largest file accepted by upload and by the parsers. */
  uploadMaxBytes: number;
  /** Most bytes an Office file (a zip) may inflate to, all entries together: a zip bomb stops there. */
  unzippedMaxBytes: number;
}

/** Model calls per run unless MAX_LLM_CALL_PER_RUN says otherwise (Qwen-Agent's MAX_LLM_CALL_PER_RUN default). */
export const DEFAULT_MAX_LLM_CALLS = 20;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function intFrom(env: Env, names: string[], fallback: number, { min = 0 } = {}): number {
  for (const name of names) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min)
      throw new ConfigError(`${name} must be an integer >= ${min} (got "${raw}")`);
    return value;
  }
  return fallback;
}

/** The first of `names` set to something other than blanks, trimmed. */
function firstSet(env: Env, names: string[]): string | undefined {
  for (const name of names) {
    const raw = env[name]?.trim();
    if (raw) return raw;
  }
  return undefined;
}

export function fncallModeFrom(value: string | undefined): FncallMode {
  const mode = (value ?? 'native').trim().toLowerCase() || 'native';
  if (!(FNCALL_MODES as readonly string[]).includes(mode)) {
    throw new ConfigError(`AGENT_FNCALL_MODE must be one of ${FNCALL_MODES.join(', ')} (got "${value}")`);
  }
  return mode as FncallMode;
}

// ---- code_interpreter -------------------------------------------------------------------------------------

export interface CodeInterpreterConfig {
  timeoutMs: number;
  /** Most bytes a work directory may hold (files plus 4 KB per entry), enforced while the code writes. */
  diskMb: number;
  /** Cap on the interpreter's wasm heap (Python objects); the JS heap is capped separately at jsHeapMb. */
  memoryMb: number;
  jsHeapMb: number;
  outputChars: number;
  idleMs: number;
  maxInterpreters: number;
  /** Extra pure-Python packages (e.g. /usr/lib/python3/dist-packages), mounted read-only and added to sys.path. */
  packagesDir?: string;
  /** Run each interpreter in its own network namespace (`unshare -rn`): 'auto' when the host allows it, or 'off'. */
  networkNamespace: 'auto' | 'off';
  /** Which Python runs the code: CPython in bubblewrap, Pyodide, or 'auto' (CPython when it can run here). */
  backend: 'auto' | 'python' | 'pyodide';
  /** The CPython backend's interpreter. */
  python: string;
}

export const CODE_INTERPRETER_DISK_MB_DEFAULT = 1024;

const CODE_INTERPRETER_BACKENDS = ['auto', 'python', 'pyodide'] as const;

function codeInterpreterFrom(env: Env): CodeInterpreterConfig {
  const netns = (env.CODE_INTERPRETER_NETNS ?? 'auto').trim().toLowerCase() || 'auto';
  if (netns !== 'auto' && netns !== 'off')
    throw new ConfigError(`CODE_INTERPRETER_NETNS must be auto or off (got "${env.CODE_INTERPRETER_NETNS}")`);
  const packagesDir = env.PYODIDE_PACKAGES_DIR?.trim();
  const backend = (env.CODE_INTERPRETER_BACKEND ?? 'auto').trim().toLowerCase() || 'auto';
  if (!(CODE_INTERPRETER_BACKENDS as readonly string[]).includes(backend))
    throw new ConfigError(
      `CODE_INTERPRETER_BACKEND must be auto, python or pyodide (got "${env.CODE_INTERPRETER_BACKEND}")`,
    );
  const python = env.CODE_INTERPRETER_PYTHON?.trim() || '/usr/bin/python3';
  if (!path.isAbsolute(python))
    throw new ConfigError(`CODE_INTERPRETER_PYTHON must be an absolute path (got "${python}")`);
  return {
    timeoutMs: intFrom(env, ['CODE_INTERPRETER_TIMEOUT_MS'], 30_000, { min: 100 }),
    diskMb: intFrom(env, ['CODE_INTERPRETER_DISK_MB'], CODE_INTERPRETER_DISK_MB_DEFAULT, { min: 1 }),
    memoryMb: intFrom(env, ['CODE_INTERPRETER_MEMORY_MB'], 512, { min: 64 }),
    jsHeapMb: intFrom(env, ['CODE_INTERPRETER_JS_HEAP_MB'], 256, { min: 64 }),
    outputChars: intFrom(env, ['CODE_INTERPRETER_OUTPUT_CHARS'], 20_000, { min: 100 }),
    idleMs: intFrom(env, ['CODE_INTERPRETER_IDLE_MS'], 600_000, { min: 1_000 }),
    maxInterpreters: intFrom(env, ['CODE_INTERPRETER_MAX'], 4, { min: 1 }),
    packagesDir: packagesDir ? path.resolve(/*turbopackIgnore: true*/ packagesDir) : undefined,
    networkNamespace: netns,
    backend: backend as CodeInterpreterConfig['backend'],
    python,
  };
}

/**
 * What Qwen-Agent reads from the environment for a model or an agent made from code (its settings.py and model
 * classes): the call limit, the input budget, use_raw_api's default, the API keys its config dicts fall back on. The
 * app's own names come first where both exist. Read when such a model or agent is made (upstream: at import).
 */
export interface QwenAgentEnv {
  /** MAX_LLM_CALL_PER_RUN, else QWEN_AGENT_MAX_LLM_CALL_PER_RUN (default 20). */
  maxLlmCallsPerRun: number;
  /** MAX_INPUT_TOKENS, else QWEN_AGENT_DEFAULT_MAX_INPUT_TOKENS (default 58000). */
  maxInputTokens: number;
  /** QWEN_AGENT_USE_RAW_API=true: a config dict's model calls tools through the tools API unless it says otherwise. */
  useRawApi: boolean;
  /** OPENAI_API_KEY: the key of an 'oai' config dict that names none. */
  openaiApiKey?: string;
  /** DASHSCOPE_API_KEY: the key of a DashScope config dict that names none. */
  dashscopeApiKey?: string;
  /** DASHSCOPE_HTTP_URL: DashScope's API base (its OpenAI-compatible mode is reached beside it). */
  dashscopeHttpUrl?: string;
}

export function qwenAgentEnv(env: Env = process.env): QwenAgentEnv {
  const rawApi = env.QWEN_AGENT_USE_RAW_API?.trim().toLowerCase();
  return {
    maxLlmCallsPerRun: maxLlmCallsFrom(env),
    maxInputTokens: intFrom(env, ['MAX_INPUT_TOKENS', 'QWEN_AGENT_DEFAULT_MAX_INPUT_TOKENS'], 58_000),
    useRawApi: rawApi === 'true',
    openaiApiKey: env.OPENAI_API_KEY?.trim() || undefined,
    dashscopeApiKey: env.DASHSCOPE_API_KEY?.trim() || undefined,
    dashscopeHttpUrl: env.DASHSCOPE_HTTP_URL?.trim() || undefined,
  };
}

/** Model calls per run: MAX_LLM_CALL_PER_RUN, else QWEN_AGENT_MAX_LLM_CALL_PER_RUN (default 20). */
export function maxLlmCallsFrom(env: Env = process.env): number {
  return intFrom(env, ['MAX_LLM_CALL_PER_RUN', 'QWEN_AGENT_MAX_LLM_CALL_PER_RUN'], DEFAULT_MAX_LLM_CALLS, { min: 1 });
}

/**
 * The configuration from the environment. Called once, by a composition root (lib/server/app-config.ts for the app,
 * a script's main), which hands each service its part; nothing below a root calls it (eslint.config.mjs says so).
 */
export function loadConfig(env: Env = process.env): AppConfig {
  return {
    llm: {
      baseURL: env.OPENAI_BASE_URL?.trim() || undefined,
      apiKey: env.OPENAI_API_KEY?.trim() || undefined,
      model: env.OPENAI_MODEL?.trim() || undefined,
      imageModel: env.OPENAI_IMAGE_MODEL?.trim() || undefined,
      fncallMode: fncallModeFrom(env.AGENT_FNCALL_MODE),
      maxRetries: intFrom(env, ['LLM_MAX_RETRIES'], 2),
      requestTimeoutMs: intFrom(env, ['LLM_REQUEST_TIMEOUT_MS'], 120_000, { min: 1 }),
      idleTimeoutMs: intFrom(env, ['LLM_IDLE_TIMEOUT_MS'], 60_000, { min: 1 }),
      maxInputTokens: intFrom(env, ['MAX_INPUT_TOKENS', 'QWEN_AGENT_DEFAULT_MAX_INPUT_TOKENS'], 58_000),
      recordRawStream: flag(env, 'RECORD_RAW_STREAM'),
      vision: visionFrom(env.MODEL_VISION),
      toolImages: flag(env, 'TOOL_IMAGES_TO_MODEL'),
      titles: titlesFrom(env.CONVERSATION_TITLES),
      rates: ratesFrom(env),
    },
    maxLlmCallsPerRun: maxLlmCallsFrom(env),
    dataDir: path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || 'data'),
    rag: {
      maxRefTokens: intFrom(env, ['RAG_MAX_REF_TOKEN', 'QWEN_AGENT_DEFAULT_MAX_REF_TOKEN'], 20_000, { min: 1 }),
      parserPageSize: intFrom(env, ['RAG_PARSER_PAGE_SIZE', 'QWEN_AGENT_DEFAULT_PARSER_PAGE_SIZE'], 500, { min: 50 }),
      keygenStrategy: firstSet(env, ['RAG_KEYGEN_STRATEGY', 'QWEN_AGENT_DEFAULT_RAG_KEYGEN_STRATEGY']),
      searchers: firstSet(env, ['RAG_SEARCHERS', 'QWEN_AGENT_DEFAULT_RAG_SEARCHERS']),
      parallelDocQaConcurrency: intFrom(env, ['PARALLEL_DOC_QA_CONCURRENCY'], 4, { min: 1 }),
      ...(env.RAG_EMBEDDING_MODEL?.trim() ? { embeddingModel: env.RAG_EMBEDDING_MODEL.trim() } : {}),
    },
    documents: {
      uploadMaxBytes: intFrom(env, ['UPLOAD_MAX_BYTES'], 50 * 1024 * 1024, { min: 1 }),
      unzippedMaxBytes: intFrom(env, ['UNZIP_MAX_BYTES'], 200 * 1024 * 1024, { min: 1 }),
    },
    images: {
      maxBytes: intFrom(env, ['IMAGE_MAX_BYTES'], 20 * 1024 * 1024, { min: 1 }),
      maxPixels: intFrom(env, ['IMAGE_MAX_PIXELS'], 40_000_000, { min: 1 }),
    },
    documentParseWorkers: intFrom(
      env,
      ['DOCUMENT_PARSE_WORKERS'],
      Math.max(1, Math.min(4, availableParallelism() - 1)),
      { min: 1 },
    ),
    codeInterpreter: codeInterpreterFrom(env),
    mcp: mcpConfigFrom(env),
    plugins: pluginsConfig(env),
    web: webConfigFrom(env),
    http: httpConfigFrom(env),
    telemetry: telemetryConfigFrom(env),
    database: databaseConfigFrom(env),
    localModels: localModelsFrom(env),
    models: modelsFrom(env),
    auth: authConfigFrom(env),
    s3: s3ConfigFrom(env),
  };
}

/** The configuration of an empty environment: what a service uses for a setting nobody handed it (the agent core
 *  used from plain Node, a script, a test). It reads no variable. */
export function defaultConfig(): AppConfig {
  return loadConfig({});
}

// ---- requests: where they may come from, the access token, run limits (issue 12) ----

export interface HttpEnvConfig {
  /** ACCESS_TOKEN: every request must carry it (cookie from the sign-in page, or Authorization: Bearer). */
  accessToken?: string;
  /** PUBLIC_URL's origin (e.g. https://studio.example.com), when the app is served behind a proxy. */
  publicOrigin?: string;
  /** Host names (lowercase, no port) the app answers to besides loopback names: PUBLIC_URL's and ALLOWED_HOSTS. */
  allowedHosts: string[];
  /** Runs one client may have going at once (MAX_CONCURRENT_RUNS). */
  maxConcurrentRuns: number;
  /** Runs one client may start per minute (MAX_RUNS_PER_MINUTE). */
  maxRunsPerMinute: number;
  /** Bytes one user may upload in 24 hours (UPLOAD_BYTES_PER_DAY). */
  uploadBytesPerDay: number;
  /** Bytes of run events (what the inspector, Runs and a reload read) one user's runs may store in 24 hours
   *  (RUN_BYTES_PER_DAY). */
  runBytesPerDay: number;
  /** AUTH=required (or beyond loopback without ACCESS_TOKEN, which the server start turns into it): accounts. */
  accounts: boolean;
  /** IMAGE_HOSTS: hosts whose images answers show without a click (and the CSP's img-src lets through). */
  imageHosts: string[];
}

/** Runs one client may start a minute unless MAX_RUNS_PER_MINUTE says otherwise: as many as MAX_CONCURRENT_RUNS'
 *  default (4) of two-second runs start in a minute, so an API client's test run or evaluation loop of quick calls
 *  is not refused while a runaway one still is (30 refused a client's ordinary test suite). */
export const DEFAULT_RUNS_PER_MINUTE = 120;

function httpConfigFrom(env: Env): HttpEnvConfig {
  const accessToken = env.ACCESS_TOKEN?.trim() || undefined;
  const tokenProblem = accessTokenProblem(accessToken);
  if (tokenProblem) throw new ConfigError(tokenProblem);
  let publicOrigin: string | undefined;
  const publicUrl = env.PUBLIC_URL?.trim();
  if (publicUrl) {
    let url: URL | undefined;
    try {
      url = new URL(publicUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new ConfigError(
        `PUBLIC_URL must be an http(s) URL such as https://studio.example.com (got "${publicUrl}")`,
      );
    publicOrigin = url.origin;
  }
  const allowedHosts = [
    ...(publicOrigin ? [new URL(publicOrigin).hostname] : []),
    ...(env.ALLOWED_HOSTS ?? '').split(','),
  ]
    .map((h) => hostNameOf(h))
    .filter(Boolean);
  return {
    accessToken,
    publicOrigin,
    allowedHosts: [...new Set(allowedHosts)],
    maxConcurrentRuns: intFrom(env, ['MAX_CONCURRENT_RUNS'], 4, { min: 1 }),
    maxRunsPerMinute: intFrom(env, ['MAX_RUNS_PER_MINUTE'], DEFAULT_RUNS_PER_MINUTE, { min: 1 }),
    uploadBytesPerDay: intFrom(env, ['UPLOAD_BYTES_PER_DAY'], 2 * 1024 * 1024 * 1024, { min: 1 }),
    runBytesPerDay: intFrom(env, ['RUN_BYTES_PER_DAY'], 2 * 1024 * 1024 * 1024, { min: 1 }),
    accounts: authRequired(env, accessToken),
    imageHosts: imageHostsFrom(env),
  };
}

function imageHostsFrom(env: Env): string[] {
  try {
    return parseImageHosts(env.IMAGE_HOSTS);
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
}

/** AUTH=required turns accounts on; with ACCESS_TOKEN (the single-user lock) it makes no sense. */
function authRequired(env: Env, accessToken: string | undefined): boolean {
  const raw = env.AUTH?.trim().toLowerCase();
  if (!raw) return false;
  if (raw !== 'required') throw new ConfigError(`AUTH must be "required" or unset (got "${env.AUTH}")`);
  if (accessToken)
    throw new ConfigError(
      'Set either ACCESS_TOKEN (one user, signed in with the token) or AUTH=required (accounts), not both.',
    );
  return true;
}

// ---- accounts (issue 14) ----

export interface OidcEnvConfig {
  /** The provider's issuer URL; its discovery document is <issuer>/.well-known/openid-configuration. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The sign-in button's label (OIDC_NAME). */
  name: string;
  /** OIDC_SIGN_UP=open: anyone the provider signs in gets an account, whatever the sign-up mode. */
  openSignUp: boolean;
}

export interface AuthEnvConfig {
  /** AUTH_SECRET (or SECRET_KEY): signs sessions; without it one is generated into DATA_DIR/auth-secret. */
  secret?: string;
  oidc?: OidcEnvConfig;
}

export const MIN_AUTH_SECRET_LENGTH = 32;

function authConfigFrom(env: Env): AuthEnvConfig {
  const secret = (env.AUTH_SECRET ?? env.SECRET_KEY)?.trim() || undefined;
  if (secret && secret.length < MIN_AUTH_SECRET_LENGTH)
    throw new ConfigError(
      `AUTH_SECRET must be at least ${MIN_AUTH_SECRET_LENGTH} characters (unset, one is generated into DATA_DIR).`,
    );
  const issuer = env.OIDC_ISSUER?.trim();
  if (!issuer) return { secret };
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) throw new ConfigError('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.');
  try {
    new URL(issuer);
  } catch {
    throw new ConfigError(`OIDC_ISSUER must be a URL such as https://id.example.com (got "${issuer}")`);
  }
  return {
    secret,
    oidc: {
      issuer: issuer.replace(/\/+$/, ''),
      clientId,
      clientSecret,
      name: env.OIDC_NAME?.trim() || 'single sign-on',
      openSignUp: env.OIDC_SIGN_UP?.trim().toLowerCase() === 'open',
    },
  };
}

// ---- model connections and the loopback scan ----

export interface ModelsEnvConfig {
  /** SECRET_KEY: the connections' API keys are encrypted with a key derived from it; without it, with a key made on
   *  first start in DATA_DIR/secret.key. */
  secretKey?: string;
  /** MODEL_SCAN_PORTS: which loopback ports the scan asks, and as which server ('off': none). */
  scanTargets: { kind: LocalServerKind; port: number }[];
  /** MODEL_SCAN_TIMEOUT_MS: how long one port may take to answer. */
  scanTimeoutMs: number;
  /** ALLOW_PRIVATE_MODEL_URLS=1: every user's connections may reach private, loopback and link-local addresses (by
   *  default only the environment's and an admin's may). */
  allowPrivateUrls: boolean;
}

export const DEFAULT_SCAN_PORTS = 'ollama:11434,lmstudio:1234,llamacpp:8080,vllm:8000,sglang:30000';
/** As long as AUTH_SECRET's: SECRET_KEY also signs sessions when AUTH_SECRET is unset (each use derives its own key). */
export const MIN_SECRET_KEY_LENGTH = MIN_AUTH_SECRET_LENGTH;

function modelsFrom(env: Env): ModelsEnvConfig {
  const secretKey = env.SECRET_KEY?.trim() || undefined;
  if (secretKey && secretKey.length < MIN_SECRET_KEY_LENGTH)
    throw new ConfigError(
      `SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters (unset, a key is made in DATA_DIR).`,
    );
  const raw = (env.MODEL_SCAN_PORTS ?? DEFAULT_SCAN_PORTS).trim();
  const scanTargets: ModelsEnvConfig['scanTargets'] = [];
  if (raw && raw.toLowerCase() !== 'off') {
    for (const item of raw
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const m = /^([a-z.]+):(\d{1,5})$/i.exec(item);
      const kind = m?.[1]?.toLowerCase().replace('.', '') as LocalServerKind | undefined;
      const port = Number(m?.[2]);
      if (!kind || !(LOCAL_SERVER_KINDS as readonly string[]).includes(kind) || !(port > 0 && port < 65536))
        throw new ConfigError(
          `MODEL_SCAN_PORTS is a list of kind:port (kinds: ${LOCAL_SERVER_KINDS.join(', ')}), or off (got "${item}")`,
        );
      scanTargets.push({ kind, port });
    }
  }
  return {
    secretKey,
    scanTargets,
    scanTimeoutMs: intFrom(env, ['MODEL_SCAN_TIMEOUT_MS'], 400, { min: 1 }),
    allowPrivateUrls: flag(env, 'ALLOW_PRIVATE_MODEL_URLS'),
  };
}

// ---- the built-in local model ----

export interface LocalModelsEnvConfig {
  /** Where GGUF files are kept and downloaded to: DATA_DIR/models. */
  dir: string;
  /** LOCAL_MODEL_GPU: 'auto' uses a GPU when llama.cpp finds one (CUDA, Vulkan, Metal); 'off' keeps to the CPU. */
  gpu: 'auto' | 'off';
  /** LOCAL_MODEL_CONTEXT_SIZE: tokens of context (at most what the model was trained for). */
  contextSize: number;
  /** LOCAL_MODEL_THREADS: CPU threads for generation (default: the cores but one, which stays for the server). */
  threads: number;
  /** LOCAL_MODEL_UPLOAD_MAX_BYTES: the largest GGUF file the page may upload (default 16 GB). */
  uploadMaxBytes: number;
}

function localModelsFrom(env: Env): LocalModelsEnvConfig {
  const gpu = (env.LOCAL_MODEL_GPU ?? 'auto').trim().toLowerCase() || 'auto';
  if (gpu !== 'auto' && gpu !== 'off')
    throw new ConfigError(`LOCAL_MODEL_GPU must be auto or off (got "${env.LOCAL_MODEL_GPU}")`);
  const dataDir = path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || 'data');
  return {
    dir: path.join(dataDir, 'models'),
    gpu,
    contextSize: intFrom(env, ['LOCAL_MODEL_CONTEXT_SIZE'], 8192, { min: 256 }),
    threads: intFrom(env, ['LOCAL_MODEL_THREADS'], Math.max(1, availableParallelism() - 1), { min: 1 }),
    uploadMaxBytes: intFrom(env, ['LOCAL_MODEL_UPLOAD_MAX_BYTES'], 16 * 1024 ** 3, { min: 1 }),
  };
}

// ---- MCP servers and web tools ----

export interface McpEnvConfig {
  /** The mcpServers JSON file (MCP_CONFIG, default DATA_DIR/mcp.json). */
  configPath: string;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** MCP_CONFIG_EDITABLE=1: the settings page may show and save the file (it can hold secrets). */
  editable: boolean;
}

export { WEB_SEARCH_PROVIDERS, type WebSearchProviderName } from './web-search-providers';

export interface WebSearchEnvConfig {
  provider: WebSearchProviderName;
  /** The provider's endpoint (SearXNG: its base URL; others: their API, overridable for self-hosted proxies). */
  url: string;
  apiKey?: string;
  maxResults: number;
  timeoutMs: number;
}

/** Results per search and the time one may take (WEB_SEARCH_MAX_RESULTS, WEB_SEARCH_TIMEOUT_MS), whichever provider. */
export type WebSearchLimits = Pick<WebSearchEnvConfig, 'maxResults' | 'timeoutMs'>;

/** The web search in force: a provider's settings, or why there is none. */
export type WebSearchState = Pick<WebEnvConfig, 'search' | 'searchProblem'>;

/** amap_weather's AMap web service: AMAP_TOKEN (upstream's name for the key) and AMAP_URL (its address). */
export interface AmapEnvConfig {
  token: string;
  url: string;
}

/** image_search's SerpAPI reverse image search: SERPAPI_IMAGE_SEARCH_KEY, SERPAPI_URL, and the attempts per search
 *  (QWEN_IMAGE_SEARCH_MAX_RETRY_TIMES, upstream's names). */
export interface ImageSearchEnvConfig {
  key: string;
  url: string;
  maxAttempts: number;
}

export interface WebEnvConfig {
  /** Undefined when no provider is configured: web_search is then not offered. */
  search?: WebSearchEnvConfig;
  /** Undefined without AMAP_TOKEN: amap_weather is then not offered. */
  amap?: AmapEnvConfig;
  /** Undefined without SERPAPI_IMAGE_SEARCH_KEY: image_search is then not offered. */
  imageSearch?: ImageSearchEnvConfig;
  /** Why web_search is off although WEB_SEARCH_PROVIDER is set (a missing key); the settings page shows it. */
  searchProblem?: string;
  /** For a provider chosen on the admin page too. */
  searchLimits: WebSearchLimits;
  fetch: {
    /** WEB_FETCH_ALLOW_PRIVATE=1: server-side fetches may reach loopback/private/link-local addresses. */
    allowPrivate: boolean;
    /** WEB_FETCH_ALLOW_HOSTS: host names or IPs (comma-separated) allowed even when they resolve to private ones. */
    allowHosts: string[];
    maxBytes: number;
    timeoutMs: number;
    maxRedirects: number;
  };
}

function flag(env: Env, name: string): boolean {
  return /^(1|true|yes|on)$/i.test(env[name]?.trim() ?? '');
}

function mcpConfigFrom(env: Env): McpEnvConfig {
  const dataDir = path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || 'data');
  const configured = env.MCP_CONFIG?.trim();
  return {
    configPath: configured ? path.resolve(/*turbopackIgnore: true*/ configured) : path.join(dataDir, 'mcp.json'),
    connectTimeoutMs: intFrom(env, ['MCP_CONNECT_TIMEOUT_MS'], 30_000, { min: 1 }),
    callTimeoutMs: intFrom(env, ['MCP_CALL_TIMEOUT_MS'], 60_000, { min: 1 }),
    editable: flag(env, 'MCP_CONFIG_EDITABLE'),
  };
}

const SEARCH_DEFAULT_URLS: Record<WebSearchProviderName, string | undefined> = {
  searxng: undefined,
  tavily: 'https://api.tavily.com/search',
  serper: 'https://google.serper.dev/search',
  brave: 'https://api.search.brave.com/res/v1/web/search',
};

const SEARCH_KEYS: Record<WebSearchProviderName, string | undefined> = {
  searxng: undefined,
  tavily: 'TAVILY_API_KEY',
  serper: 'SERPER_API_KEY',
  brave: 'BRAVE_API_KEY',
};

/** A provider's search settings: its endpoint (SearXNG's is required; the others have theirs) and key, with the result
 *  count and timeout of WEB_SEARCH_MAX_RESULTS and WEB_SEARCH_TIMEOUT_MS (`limits`). Also how the admin page's
 *  setting is made (lib/server/web-search-settings). */
export function webSearchSettings(
  provider: WebSearchProviderName,
  opts: { url?: string; apiKey?: string },
  limits: WebSearchLimits,
): WebSearchEnvConfig {
  return {
    provider,
    url: opts.url?.trim() || SEARCH_DEFAULT_URLS[provider] || '',
    apiKey: opts.apiKey,
    ...limits,
  };
}

/** Does this provider need an API key? */
export function webSearchNeedsKey(provider: WebSearchProviderName): boolean {
  return SEARCH_KEYS[provider] !== undefined;
}

// A bad search setting only turns web_search off (with the reason shown); it must not stop the whole app.
function webSearchFrom(
  env: Env,
  searchLimits: WebSearchLimits,
): { search?: WebSearchEnvConfig; searchProblem?: string } {
  const raw = env.WEB_SEARCH_PROVIDER?.trim().toLowerCase();
  if (!raw) return {};
  if (!(WEB_SEARCH_PROVIDERS as readonly string[]).includes(raw))
    return { searchProblem: `WEB_SEARCH_PROVIDER must be one of ${WEB_SEARCH_PROVIDERS.join(', ')} (got "${raw}")` };
  const provider = raw as WebSearchProviderName;
  const keyName = SEARCH_KEYS[provider];
  const apiKey = keyName ? env[keyName]?.trim() || undefined : undefined;
  if (keyName && !apiKey) return { searchProblem: `WEB_SEARCH_PROVIDER=${provider} needs ${keyName}` };
  const urlName = provider === 'searxng' ? 'SEARXNG_URL' : 'WEB_SEARCH_URL';
  const url = env[urlName]?.trim() || SEARCH_DEFAULT_URLS[provider];
  if (!url) return { searchProblem: 'WEB_SEARCH_PROVIDER=searxng needs SEARXNG_URL (e.g. http://localhost:8888)' };
  return { search: webSearchSettings(provider, { url, apiKey }, searchLimits) };
}

function webConfigFrom(env: Env): WebEnvConfig {
  const searchLimits = {
    maxResults: intFrom(env, ['WEB_SEARCH_MAX_RESULTS'], 8, { min: 1 }),
    timeoutMs: intFrom(env, ['WEB_SEARCH_TIMEOUT_MS'], 15_000, { min: 1 }),
  };
  const amapToken = env.AMAP_TOKEN?.trim();
  const imageKey = env.SERPAPI_IMAGE_SEARCH_KEY?.trim();
  return {
    ...webSearchFrom(env, searchLimits),
    searchLimits,
    ...(amapToken ? { amap: { token: amapToken, url: env.AMAP_URL?.trim() || 'https://restapi.amap.com' } } : {}),
    ...(imageKey
      ? {
          imageSearch: {
            key: imageKey,
            url: env.SERPAPI_URL?.trim() || 'https://serpapi.com/search.json',
            maxAttempts: intFrom(env, ['QWEN_IMAGE_SEARCH_MAX_RETRY_TIMES'], 3, { min: 1 }),
          },
        }
      : {}),
    fetch: {
      allowPrivate: flag(env, 'WEB_FETCH_ALLOW_PRIVATE'),
      allowHosts: (env.WEB_FETCH_ALLOW_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      maxBytes: intFrom(env, ['WEB_FETCH_MAX_BYTES'], 5 * 1024 * 1024, { min: 1 }),
      timeoutMs: intFrom(env, ['WEB_FETCH_TIMEOUT_MS'], 20_000, { min: 1 }),
      maxRedirects: intFrom(env, ['WEB_FETCH_MAX_REDIRECTS'], 5),
    },
  };
}

// ---- OpenTelemetry traces ----

export interface TelemetryEnvConfig {
  /** Export runs as traces: OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set and
   *  OTEL_SDK_DISABLED is not. The exporter reads the endpoint, OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT and
   *  _COMPRESSION itself, as the OpenTelemetry specification says. */
  enabled: boolean;
  /** The endpoint variable's value (the exporter resolves the traces URL from the same variables itself). */
  endpoint?: string;
  /** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL / OTEL_EXPORTER_OTLP_PROTOCOL: protobuf (the specification's default, and
   *  what every backend takes) or JSON. */
  protocol: OtlpProtocol;
  /** OTEL_CAPTURE_CONTENT=1: prompts, completions, tool arguments and results go into the spans. */
  captureContent: boolean;
  serviceName: string;
  /** The batch span processor's bounds (OTEL_BSP_*, with the specification's defaults). */
  batch: {
    maxQueueSize: number;
    maxExportBatchSize: number;
    scheduledDelayMillis: number;
    exportTimeoutMillis: number;
  };
}

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

function telemetryConfigFrom(env: Env): TelemetryEnvConfig {
  const protocolVar = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolVar]?.trim().toLowerCase() || 'http/protobuf';
  if (!(OTLP_PROTOCOLS as readonly string[]).includes(protocol))
    throw new ConfigError(
      `${protocolVar} must be http/protobuf or http/json (got "${env[protocolVar]}"; grpc is not offered)`,
    );
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined;
  const off = flag(env, 'OTEL_SDK_DISABLED') || env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none';
  return {
    enabled: Boolean(endpoint) && !off,
    endpoint,
    protocol: protocol as OtlpProtocol,
    captureContent: flag(env, 'OTEL_CAPTURE_CONTENT'),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'agent-studio',
    batch: {
      maxQueueSize: intFrom(env, ['OTEL_BSP_MAX_QUEUE_SIZE'], 2048, { min: 1 }),
      maxExportBatchSize: intFrom(env, ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE'], 512, { min: 1 }),
      scheduledDelayMillis: intFrom(env, ['OTEL_BSP_SCHEDULE_DELAY'], 5000, { min: 0 }),
      exportTimeoutMillis: intFrom(env, ['OTEL_BSP_EXPORT_TIMEOUT'], 30_000, { min: 1 }),
    },
  };
}

// ---- the database: SQLite in DATA_DIR, or PostgreSQL shared by several instances ----

export interface DatabaseEnvConfig {
  /** DATABASE_URL (postgres://…): PostgreSQL; unset: SQLite in DATA_DIR. Server-side only (it holds a password). */
  url?: string;
  /** DATABASE_POOL_SIZE: PostgreSQL connections per instance (one more listens for notifications). */
  poolSize: number;
  /** RUN_LEASE_MS: how long a run's lease lasts past its instance's last heartbeat (renewed every fifth of it);
   *  a run whose lease ran out is marked interrupted by another instance. */
  leaseMs: number;
}

function databaseConfigFrom(env: Env): DatabaseEnvConfig {
  const url = env.DATABASE_URL?.trim() || undefined;
  if (url && !/^postgres(ql)?:\/\//i.test(url)) {
    // Only the scheme is shown: the rest may hold a password.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? 'no scheme';
    throw new ConfigError(
      `DATABASE_URL must be a postgres:// (or postgresql://) URL (got ${scheme}); leave it unset for SQLite in DATA_DIR`,
    );
  }
  return {
    url,
    poolSize: intFrom(env, ['DATABASE_POOL_SIZE'], 10, { min: 1 }),
    leaseMs: intFrom(env, ['RUN_LEASE_MS'], 10_000, { min: 250 }),
  };
}

// ---- files on S3 (issue 19) -------------------------------------------------------------------------------

export interface S3EnvConfig {
  bucket: string;
  /** S3_ENDPOINT: an S3-compatible server (MinIO, Ceph, R2…); unset, AWS's endpoint for the region. */
  endpoint?: string;
  region: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, both or neither (then the AWS SDK's own chain: AWS_* variables,
   *  the instance's role). Never logged, never sent to the page. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path (http://host/bucket/key) rather than the host name: what most S3-compatible servers want. */
  forcePathStyle: boolean;
  /** Keys start with this ("" or ending in "/"), so several installs can share a bucket. */
  prefix: string;
}

/** S3_BUCKET turns the bucket on; the other S3_* settings without it are a mistake, said as one. */
function s3ConfigFrom(env: Env): S3EnvConfig | undefined {
  const get = (name: string) => env[name]?.trim() || undefined;
  const bucket = get('S3_BUCKET');
  const others = [
    'S3_ENDPOINT',
    'S3_REGION',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_FORCE_PATH_STYLE',
    'S3_PREFIX',
  ];
  if (!bucket) {
    const set = others.filter(get);
    if (set.length)
      throw new ConfigError(`${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not`);
    return undefined;
  }
  const endpoint = get('S3_ENDPOINT');
  if (endpoint && !/^https?:\/\/[^/]/i.test(endpoint))
    throw new ConfigError(`S3_ENDPOINT must be an http(s) URL such as http://127.0.0.1:9000 (got "${endpoint}")`);
  const [accessKeyId, secretAccessKey] = [get('S3_ACCESS_KEY_ID'), get('S3_SECRET_ACCESS_KEY')];
  if (!accessKeyId !== !secretAccessKey)
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  const pathStyle = (get('S3_FORCE_PATH_STYLE') ?? 'false').toLowerCase();
  if (!['1', 'true', '0', 'false'].includes(pathStyle))
    throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false (got "${env.S3_FORCE_PATH_STYLE}")`);
  const prefix = (get('S3_PREFIX') ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((p) => p === '.' || p === '..'))
    throw new ConfigError(`S3_PREFIX must not hold "." or ".." parts (got "${env.S3_PREFIX}")`);
  return {
    bucket,
    endpoint,
    region: get('S3_REGION') ?? 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === '1' || pathStyle === 'true',
    prefix: prefix ? `${prefix}/` : '',
  };
}
