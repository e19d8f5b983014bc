// What the trace inspector shows of one run: its iterations (one model call each) with their timing, request, raw
// response and tool steps, folded from the run's stored events by fold.ts.
import type { AgentKind, CallFormat, HandoffReason, RunStatus } from '../protocol/enums';
import type { UnfinishedCall } from '../protocol/unfinished-calls';
import type { CallCost, ContextGauge, RunCost } from '../llm/cost';
import type {
  ErrorInfo,
  LlmRequest,
  Pricing,
  RawStream,
  RetrievalCandidate,
  Retriever,
  ToolErrorInfo,
  ToolFile,
  Usage,
} from '../protocol/events';
import type { ContentItem, Message } from '../llm/schema';
import type { ReactStep } from '../llm/fncall';

export interface RawToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The model's output for one call, as it left the model (before tool-call extraction). */
export interface RawResponse {
  /** The whole content text: tool-call markup, think tags and text after a stop word included. */
  content: string;
  /** The reasoning as the page showed it (reasoning_content, or text out of think tags). */
  reasoning: string;
  /** Only what the server sent apart from the content (reasoning_content); think tags stay in `content`. */
  separateReasoning: string;
  /** What the page showed as the answer text of this call. */
  shownText: string;
  /** Native tool_calls, as the server sent them. */
  toolCalls: RawToolCall[];
  /** True when the raw content differs from the streamed text (markup, think tags, text after a stop word). */
  differsFromShown: boolean;
}

export interface ToolStep {
  functionId: string;
  name: string;
  /** The arguments exactly as the model wrote them. */
  arguments: string;
  startT: number;
  endT?: number;
  durationMs?: number;
  ok?: boolean;
  /** What the model was given back. */
  content?: string | ContentItem[];
  error?: Omit<ToolErrorInfo, 'kind'> & { kind: string };
  files?: ToolFile[];
  /** A tool the caller declared: handed back, not run here. */
  client?: true;
  /** The run ended with no result for it: running then, or never started (as the chat card says). */
  unfinished?: UnfinishedCall;
}

export interface RetrievalStep {
  /** `memory`: a VirtualMemoryAgent recalled earlier turns (each candidate's page is a turn). */
  by: Retriever;
  functionId?: string;
  query: string;
  candidates: RetrievalCandidate[];
  budgetTokens: number;
  usedTokens: number;
  startT: number;
  durationMs: number;
}

export interface Iteration {
  /** 1..N */
  n: number;
  format: CallFormat;
  /** When the request left (ms since the run started). */
  startT: number;
  /** Time to first token, from startT. */
  ttftMs?: number;
  /** When the model's answer ended (ms since the run started). */
  endT?: number;
  durationMs?: number;
  /** The run's end cut the call (a stop, a failure): it never finished, and its response is what had streamed. */
  cut?: true;
  finishReason?: string;
  usage?: Usage;
  /** Absent in feeds that strip it (the browser feed) and in runs recorded before requests were logged. */
  request?: LlmRequest;
  truncation?: { inputTokens: number; budget: number; notes: string[] };
  retries: { attempt: number; delayMs: number; error: ErrorInfo }[];
  response: RawResponse;
  parseErrors: string[];
  /** The provider's SSE chunks as received, when the run was recorded with raw-stream recording on. */
  rawStream?: RawStream;
  tools: ToolStep[];
  retrievals: RetrievalStep[];
  reactSteps: ReactStep[];
  /** At the prices the run started with. */
  cost: CallCost;
  /** Its input tokens against the model's context length (absent when either is unknown). */
  context?: ContextGauge;
}

export interface StopInfo {
  /** How its run-end says it stopped, `interrupted` (stored so: its server stopped first), or `running`. */
  reason: RunStatus;
  /** A sentence saying why the run stopped. */
  explanation: string;
  error?: ErrorInfo;
}

export interface InspectedRun {
  runId: string;
  agent: string;
  kind?: AgentKind;
  model: string;
  /** The connection its model was reached through (run-start's), when known: a server it could not reach is named by it. */
  connection?: string;
  fncallMode?: string;
  maxLlmCalls?: number;
  toolNames: string[];
  /** The messages the run was given (absent in feeds that strip it). */
  input?: Message[];
  iterations: Iteration[];
  /** Retrievals before the first model call or outside any iteration. */
  retrievals: RetrievalStep[];
  stop: StopInfo;
  usage: Usage;
  llmCalls: number;
  toolCalls: number;
  /** Run length in ms (the last event's time while a run is unfinished). */
  durationMs: number;
  /** The prices and context length the run started with (its run-start), when known. */
  pricing?: Pricing;
  contextLength?: number;
  /** Its own model calls' cost (a child run's are in the child's). */
  cost: RunCost;
  /** Child runs (a Router's helper, a GroupChat's members), in the order they started; absent when it has none. */
  children?: ChildRun[];
  /** Its own calls' cost and its child runs' (at any depth, each at its own run's prices); set when it has children,
   *  as the Runs page counts them. */
  totalCost?: RunCost;
}

/** A child run as its parent saw it: when on the parent's clock, why it spoke, and its own inspection. */
export interface ChildRun {
  agent: string;
  /** The parent's clock (ms) at the child's first and last event. */
  startT: number;
  endT: number;
  /** The handoff that picked it: a GroupChat's round and the reason. */
  round?: number;
  reason?: HandoffReason;
  run: InspectedRun;
}
