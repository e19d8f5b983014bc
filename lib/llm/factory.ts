// Builds the ChatModel a configuration describes. The caller resolves the configuration (lib/config reads the
// environment; the composition root adds a conversation's settings): createChatModel reads nothing from the
// environment. getChatModel takes Qwen-Agent's config dict, with the environment upstream reads for it.
import { DeferredLocalModel } from './local/deferred-model';
import { loadOptionsFrom } from './local/worker-protocol';
import type { ChatModel } from './model';
import type { LocalModelConfig, ModelConfig } from './model-config';
import { OpenAIChatModel } from './openai-model';
import { qwenModelConfig, type QwenLlmConfig } from './qwen-config';

export type { LocalModelConfig, ModelConfig } from './model-config';

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

/** Qwen-Agent's get_chat_model: a model from its llm config dict, or a model name (qwen-config.ts says what is
 *  supported; the rest is refused, naming what to pass). */
export function getChatModel(cfg: QwenLlmConfig | string = 'qwen-plus'): ChatModel {
  return createChatModel(qwenModelConfig(cfg));
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
