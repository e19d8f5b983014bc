// Builds the ChatModel a configuration describes. The caller resolves the configuration (lib/config reads the
// environment; the composition root adds a conversation's settings); nothing here reads the environment.
import type { FncallMode } from '../protocol/enums';
import type { ChatModel, GenerateCfg } from './model';
import { OpenAIChatModel } from './openai-model';

/** A model connection and how to call it. Fields left out take the model layer's defaults. */
export interface ModelConfig {
  /** Model name sent in each request (default gpt-4o-mini). */
  model?: string;
  /** An OpenAI-compatible server, ending in /v1 (default: OpenAI). */
  baseURL?: string;
  apiKey?: string;
  fncallMode?: FncallMode;
  /** Qwen-Agent's generate_cfg: model parameters and per-call knobs. */
  generateCfg?: GenerateCfg;
  maxRetries?: number;
  requestTimeoutMs?: number;
  idleTimeoutMs?: number;
  maxInputTokens?: number;
}

export function createChatModel(config: ModelConfig = {}): ChatModel {
  return new OpenAIChatModel({
    model: config.model,
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    fncallMode: config.fncallMode,
    generateCfg: config.generateCfg,
    defaults: {
      maxRetries: config.maxRetries,
      requestTimeoutMs: config.requestTimeoutMs,
      idleTimeoutMs: config.idleTimeoutMs,
      maxInputTokens: config.maxInputTokens,
    },
  });
}
