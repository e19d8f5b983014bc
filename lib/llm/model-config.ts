// What createChatModel (factory.ts) takes: a model connection and how to call it.
import type { LocalModelsEnvConfig } from '../config';
import type { AddressPolicy } from '../net/address-policy';
import type { FncallMode } from '../protocol/enums';
import type { Pricing } from '../protocol/events';
import type { ImageResolver } from './image-data';
import type { GenerateCfg } from './model';

/** A model connection and how to call it. Fields left out take the model layer's defaults. */
export interface ModelConfig {
  /** Model name sent in each request (default gpt-4o-mini; for a local model, its file name without .gguf). */
  model?: string;
  /** An OpenAI-compatible server, ending in /v1 (default: OpenAI). */
  baseURL?: string;
  apiKey?: string;
  /** Which addresses the server's URL may reach, checked at connect time (default: any; lib/models sets it). */
  addressPolicy?: AddressPolicy;
  fncallMode?: FncallMode;
  /** Qwen-Agent's generate_cfg: model parameters and per-call knobs. */
  generateCfg?: GenerateCfg;
  maxRetries?: number;
  requestTimeoutMs?: number;
  idleTimeoutMs?: number;
  maxInputTokens?: number;
  /** The connection's name (shown on each turn, in run-start). */
  connection?: string;
  /** The model's prices per million tokens and its context length, when known (recorded in run-start). */
  pricing?: Pricing;
  contextLength?: number;
  /** Reads image items' references when a request leaves (the app: its uploads). Without it, only image URLs
   *  (http, https, data) are sent. */
  images?: ImageResolver;
  /**
   * The built-in local model: this GGUF file runs in the app's own process instead of a server being called
   * (baseURL, apiKey, retries and timeouts are then unused).
   */
  local?: LocalModelConfig;
}

/** A GGUF file (absolute path: resolveLocalModel names one under DATA_DIR/models) and how llama.cpp runs it. */
export type LocalModelConfig = { file: string } & Partial<Omit<LocalModelsEnvConfig, 'dir'>>;
