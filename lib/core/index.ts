// The agent core as one module: what `@agent-studio/core` exports (the agents, the model layer's factory, the tools
// and the event protocol). Code outside the app (examples, plugins, scripts) imports it by that name; the app's own
// modules keep importing the layers directly.
export * from '../agent';
export * from '../../tools';
export {
  createChatModel,
  getChatModel,
  type LocalModelConfig,
  type ModelConfig,
  type QwenLlmConfig,
  type ChatRequest,
  type LlmCallResult,
  type LlmStreamEvent,
  quickChatOai,
  contentText,
  type OaiChatMessage,
  type OaiChatResponse,
  type OaiTool,
} from '../llm';
