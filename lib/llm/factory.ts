// Builds the ChatModel a configuration describes. The caller resolves the configuration (lib/config reads the
// environment; the composition root adds a conversation's settings); nothing here reads the environment.
import type { AddressPolicy } from '../net/address-policy';
import type { Pricing } from '../protocol/events';
import type { LocalModelsEnvConfig } from '../config';
import type { FncallMode } from '../protocol/enums';
import { DeferredLocalModel } from './local/deferred-model';
import { loadOptionsFrom } from './local/worker-protocol';
import type { ChatModel, GenerateCfg } from './model';
import type { ImageResolver } from './image-data';
import { OpenAIChatModel } from './openai-model';

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

export function createChatModel(config: ModelConfig = {}): ChatModel {
  if (config.local) return localChatModel(config, config.local);
  return new OpenAIChatModel({
    model: config.model,
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    ...(config.addressPolicy ? { addressPolicy: config.addressPolicy } : {}),
    fncallMode: config.fncallMode,
    generateCfg: config.generateCfg,
    connection: config.connection,
    ...(config.pricing ? { pricing: config.pricing } : {}),
    ...(config.contextLength ? { contextLength: config.contextLength } : {}),
    ...(config.images ? { images: config.images } : {}),
    defaults: {
      maxRetries: config.maxRetries,
      requestTimeoutMs: config.requestTimeoutMs,
      idleTimeoutMs: config.idleTimeoutMs,
      maxInputTokens: config.maxInputTokens,
    },
  });
}

function localChatModel(config: ModelConfig, { file, ...settings }: LocalModelConfig): ChatModel {
  return new DeferredLocalModel(
    {
      file,
      model: config.model,
      fncallMode: config.fncallMode,
      generateCfg: config.generateCfg,
      maxInputTokens: config.maxInputTokens,
      load: loadOptionsFrom(settings),
    },
    config.connection,
    { pricing: config.pricing, contextLength: config.contextLength },
  );
}
