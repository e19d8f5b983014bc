// The agent core's public API (documented in the README). Models come from lib/llm (`createChatModel`).
export { Agent, type AgentOptions } from './agent';
export type { RunOptions, ToolChoice } from './run-state';
export type { ToolSpec } from './function-list';
export { FnCallAgent } from './fncall-agent';
export { ReActChat } from './react-chat';
export { Assistant, type AssistantOptions, type RagCfg } from './assistant';
export { Router, type RouterOptions } from './router';
export { GroupChat, type GroupChatOptions } from './group-chat';
export { VirtualMemoryAgent, type VirtualMemoryAgentOptions } from './virtual-memory-agent';
export { MemoAssistant } from './memo-assistant';
export { TIRMathAgent, type TIRMathAgentOptions } from './tir-agent';
export { ArticleAgent, type ArticleAgentOptions } from './article-agent';
export {
  WriteFromScratch,
  OutlineWriting,
  ExpandWriting,
  ContinueWriting,
  type ExpandInput,
  type WritingInput,
} from './writing';
export {
  BasicDocQA,
  ParallelDocQA,
  ParallelDocQAMember,
  ParallelDocQASummary,
  NO_RESPONSE,
  type ParallelDocQAOptions,
  type ParallelDocQAMemberOptions,
  type ParallelDocQASummaryOptions,
  type ReaderChunk,
} from './doc-qa';
export {
  GenKeyword,
  GenKeywordWithKnowledge,
  SplitQuery,
  SplitQueryThenGenKeyword,
  SplitQueryThenGenKeywordWithKnowledge,
  KEYGEN_STRATEGY_NAMES,
  type KeygenOptions,
  type KeygenStrategyName,
} from './keygen';
export { ChildRunError } from './child-run';
export { MessageFold, foldEvents } from './fold';
export { typewriterPrint, typewriterText, TYPEWRITER_MARKERS } from './typewriter';
export {
  AgentEventSchema,
  parseAgentEvent,
  type AgentEvent,
  type AgentEventType,
  type EventOf,
  type Usage,
} from '../protocol/events';
export type { StopReason } from '../protocol/enums';
export type { Message, ContentItem, FunctionCall } from '../protocol/message';
export type { FunctionDef } from '../llm/schema';
export type { ChatModel, GenerateCfg } from '../llm/model';
