// The messages between LocalModelHost (the server's thread) and llama-worker.mjs (the thread that runs llama.cpp).
// The worker is plain JavaScript, started without a TypeScript loader; these types describe what it accepts.
import type { ChatHistoryItem } from 'node-llama-cpp';
import type { LocalModelsEnvConfig } from '../../config';

export interface LoadOptions {
  /** 'auto': node-llama-cpp picks CUDA, Vulkan or Metal when the machine has one, else the CPU. */
  gpu: 'auto' | false;
  /** Tokens of context; clamped to what the model was trained for. */
  contextSize: number;
  threads: number;
}

/** How llama.cpp runs a model, from the LOCAL_MODEL_* settings (lib/config): each setting given maps to its option. */
export function loadOptionsFrom(settings: LocalModelsEnvConfig): LoadOptions;
export function loadOptionsFrom(settings: Partial<LocalModelsEnvConfig>): Partial<LoadOptions>;
export function loadOptionsFrom(settings: Partial<LocalModelsEnvConfig>): Partial<LoadOptions> {
  const load: Partial<LoadOptions> = {};
  if (settings.gpu !== undefined) load.gpu = settings.gpu === 'off' ? false : 'auto';
  if (settings.contextSize !== undefined) load.contextSize = settings.contextSize;
  if (settings.threads !== undefined) load.threads = settings.threads;
  return load;
}

export interface LoadedModelInfo {
  path: string;
  contextSize: number;
  trainContextSize: number;
  /** The GPU llama.cpp runs on ('cuda', 'vulkan', 'metal'), or false for the CPU. */
  gpu: string | false;
  /** The chat template's own tool-call syntax was recognised (native tool calls follow the template). */
  templateTools: boolean;
  /** Which chat wrapper renders the messages ('JinjaTemplate' when the GGUF carries a template). */
  chatWrapper: string;
  loadMs: number;
}

/** A function as node-llama-cpp's function calling takes it; params already narrowed to a grammar schema. */
export type WorkerFunctions = Record<string, { description?: string; params: Record<string, unknown> }>;

/** How a required tool call is produced under a grammar. */
export type ForcedCall =
  /** Text formats (nous): the model's answer starts with `prefix`, the JSON follows `schema`, then `suffix`. */
  | { kind: 'text'; prefix: string; schema: Record<string, unknown>; suffix: string }
  /** Native: the call is written in the template's own syntax; `name` absent means any of the functions. */
  | { kind: 'native'; name?: string };

export interface SamplingOptions {
  maxTokens: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
  stop: string[];
}

export type HostRequest =
  | { op: 'load'; id: number; path: string; load: LoadOptions }
  | {
      op: 'chat';
      id: number;
      path: string;
      load: LoadOptions;
      history: ChatHistoryItem[];
      functions?: WorkerFunctions;
      forced?: ForcedCall;
      sampling: SamplingOptions;
    }
  | { op: 'count'; id: number; path: string; load: LoadOptions; text: string }
  /** One vector per text (Float32Array each), from the model's embedding context. */
  | { op: 'embed'; id: number; path: string; load: LoadOptions; texts: string[] }
  | {
      op: 'count-prompt';
      id: number;
      path: string;
      load: LoadOptions;
      history: ChatHistoryItem[];
      functions?: WorkerFunctions;
    }
  | { op: 'abort'; id: number }
  | { op: 'unload'; id: number; path: string };

export interface WorkerChatResult {
  /** The answer's text (for a forced text call: prefix + JSON + suffix). */
  text: string;
  reasoning: string;
  functionCalls: { name: string; params: unknown; raw: string }[];
  /** node-llama-cpp's stop reason: eogToken, stopGenerationTrigger, customStopTrigger, maxTokens, functionCalls, abort. */
  stopReason: string;
  promptTokens: number;
  completionTokens: number;
  ttftMs?: number;
  durationMs: number;
}

export type WorkerMessage =
  | { id: number; type: 'chunk'; kind: 'text' | 'reasoning'; text: string }
  | { id: number; type: 'done'; value: unknown }
  | { id: number; type: 'error'; error: { name: string; message: string } };
