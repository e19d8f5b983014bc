// The model layer's public API: build a ChatModel from a configuration, and the interface the agents use.
export { createChatModel, getChatModel, type LocalModelConfig, type ModelConfig } from './factory';
export type { ChatModel, ChatRequest, GenerateCfg, LlmCallResult, LlmStreamEvent } from './model';
export type { QwenLlmConfig } from './qwen-config';
export { quickChatOai, type OaiChatMessage, type OaiChatResponse, type OaiTool } from './quick-chat-oai';
export { contentText } from './schema';
