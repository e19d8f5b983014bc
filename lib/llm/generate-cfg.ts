// Qwen-Agent's generate_cfg, read the way upstream reads it: the keys its client consumes (never sent to the server),
// the two that pick the function-call mode when a model is made, the ones that reach the request in another shape
// (extra_body merged into the body, request_timeout as the client's timeout), and everything else sent as given.
import type { FncallMode } from '../protocol/enums';
import { ModelInputError } from './errors';
import type { ChatRequest, GenerateCfg } from './model';
import { detectLang, type FunctionDef } from './schema';

/** Keys that steer the client and are never sent as request parameters. */
export const CLIENT_KEYS: ReadonlySet<string> = new Set([
  // upstream's (llm/base.py, llm/function_calling.py, llm/oai.py)
  'max_retries',
  'use_raw_api',
  'lang',
  'max_input_tokens',
  'parallel_function_calls',
  'function_choice',
  'thought_in_content',
  'fncall_prompt_type',
  'request_timeout',
  'extra_body',
  // DashScope's own API takes it (upstream adds it for DashScope models); the OpenAI wire format has no such field.
  'incremental_output',
  // sent, but in their own place (stop is also enforced on the client; seed is made up when missing)
  'stop',
  'seed',
  // ours
  'retry_base_delay_ms',
  'stream',
  'record_raw_stream',
  'send_reasoning',
  'multimodal',
  'tool_images',
  'request_timeout_ms',
  'idle_timeout_ms',
]);

/** Upstream keys this port does not do, with what to do instead. */
const UNSUPPORTED: Record<string, string> = {
  cache_dir: 'generate_cfg.cache_dir (a disk cache of model answers) is not supported: remove it.',
};

const PROMPT_TYPES = ['nous', 'qwen'] as const;

/** Throws on a key this port refuses (the model is made, or the call sent, without it otherwise). */
export function checkGenerateCfg(cfg: GenerateCfg): void {
  for (const key of Object.keys(UNSUPPORTED)) if (cfg[key] !== undefined) throw new ModelInputError(UNSUPPORTED[key]!);
  const type = cfg.fncall_prompt_type;
  if (type !== undefined && !(PROMPT_TYPES as readonly unknown[]).includes(type))
    throw new ModelInputError(
      `generate_cfg.fncall_prompt_type must be 'nous' or 'qwen' (got ${JSON.stringify(type)}).`,
    );
  const extra = cfg.extra_body;
  if (extra !== undefined && (extra === null || typeof extra !== 'object' || Array.isArray(extra)))
    throw new ModelInputError('generate_cfg.extra_body must be an object (its keys are sent in the request body).');
}

/**
 * The function-call mode generate_cfg asks for, as upstream picks it when the model is made: use_raw_api true is
 * the tools API ('native'); otherwise the prompt template fncall_prompt_type names, 'nous' by default. Undefined
 * when generate_cfg names neither key.
 */
export function fncallModeOf(cfg: GenerateCfg): FncallMode | undefined {
  if (cfg.use_raw_api === true) return 'native';
  if (cfg.fncall_prompt_type !== undefined) return cfg.fncall_prompt_type;
  if (cfg.use_raw_api === false) return 'nous';
  return undefined;
}

/** A model's mode: the one it is given, else the one its generate_cfg asks for, else `fallback`. The two disagreeing
 *  is refused, naming both. */
export function resolveFncallMode(given: FncallMode | undefined, cfg: GenerateCfg, fallback: FncallMode): FncallMode {
  const asked = fncallModeOf(cfg);
  if (given && asked && given !== asked)
    throw new ModelInputError(
      `fncallMode '${given}' contradicts generate_cfg (${describe(cfg)} means '${asked}'): give one of them.`,
    );
  return given ?? asked ?? fallback;
}

/** A call's own cfg may not switch the mode the model was made with (upstream reads these keys only then). */
export function checkCallMode(mode: FncallMode, cfg: GenerateCfg | undefined): void {
  const asked = cfg && fncallModeOf(cfg);
  if (asked && asked !== mode)
    throw new ModelInputError(
      `${describe(cfg!)} asks for '${asked}', but this model was made with '${mode}': set it when the model is made.`,
    );
}

function describe(cfg: GenerateCfg): string {
  const parts: string[] = [];
  if (cfg.use_raw_api !== undefined) parts.push(`use_raw_api: ${String(cfg.use_raw_api)}`);
  if (cfg.fncall_prompt_type !== undefined) parts.push(`fncall_prompt_type: '${cfg.fncall_prompt_type}'`);
  return parts.join(', ');
}

/** Adds the parameters generate_cfg sends to `body`: each key the client does not consume, as given, then
 *  extra_body's keys over them (the Python openai client merges extra_body into the body's top level). */
export function addRequestParams(body: Record<string, unknown>, cfg: GenerateCfg): void {
  for (const k in cfg) if (cfg[k] !== undefined && !CLIENT_KEYS.has(k)) body[k] = cfg[k];
  const extra = cfg.extra_body;
  if (extra) for (const k in extra) if (extra[k] !== undefined) body[k] = extra[k];
}

/** The request timeout in ms: request_timeout_ms, else upstream's request_timeout (seconds), else `fallback`. */
export function requestTimeoutMs(cfg: GenerateCfg, fallback: number): number {
  if (typeof cfg.request_timeout_ms === 'number') return cfg.request_timeout_ms;
  if (typeof cfg.request_timeout === 'number' && cfg.request_timeout > 0) return Math.round(cfg.request_timeout * 1000);
  return fallback;
}

/** Several calls in one answer unless generate_cfg says no; unset, upstream's qwen template is the single-call one
 *  (its nous template has no such variant and allows several; the tools API leaves it to the server). */
export function parallelCalls(cfg: GenerateCfg, format: FncallMode): boolean {
  return cfg.parallel_function_calls ?? format !== 'qwen';
}

/** What generate_cfg.function_choice ('auto' unless set) asks of a call with these functions: whether tools are
 *  offered at all, the function a call is forced to, and whether a call is required. A name that is no function's is
 *  refused. */
export function functionChoiceOf(cfg: GenerateCfg, functions: readonly FunctionDef[]) {
  const choice = cfg.function_choice ?? 'auto';
  const keyword = choice === 'auto' || choice === 'none' || choice === 'required';
  if (functions.length && !keyword && !functions.some((f) => f.name === choice))
    throw new ModelInputError(
      `function_choice must be 'auto', 'none', 'required' or one of the functions (got '${choice}')`,
    );
  const useTools = functions.length > 0 && choice !== 'none';
  return { choice, useTools, forcedName: keyword ? undefined : choice, required: useTools && choice !== 'auto' };
}

/** The language of a call's prompts, as upstream picks it: the caller's (an agent passes its run's), else
 *  generate_cfg.lang, else the messages' (Chinese when they hold any). */
export function callLang(req: Pick<ChatRequest, 'lang' | 'messages'>, cfg: GenerateCfg) {
  return req.lang ?? cfg.lang ?? detectLang(req.messages);
}
