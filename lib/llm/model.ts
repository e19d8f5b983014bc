// The model interface the agents use. One call = one request to the model server (with its retries).
import type { CallFormat, FncallMode } from '../protocol/enums';
import type { ErrorInfo, LlmRequest, Pricing, RawStream, Usage } from '../protocol/events';
import type { Embedder } from './embeddings';
import type { FunctionDef, Lang, Message } from './schema';

/** Qwen-Agent's generate_cfg. Known keys are interpreted here and never sent; any other key is sent in the request
 *  body as given (docs/qwen-agent.md has the table). */
export interface GenerateCfg {
  temperature?: number;
  top_p?: number;
  top_k?: number;
  max_tokens?: number;
  seed?: number;
  stop?: string[];
  /** Retries on 429 / 5xx / network errors (default from LLM_MAX_RETRIES, 2). Upstream defaults to 0. */
  max_retries?: number;
  /** First backoff delay; doubles each retry, with jitter (default 1000 ms). */
  retry_base_delay_ms?: number;
  /** Input budget in tokens (default 58,000; <= 0 disables truncation). */
  max_input_tokens?: number;
  /** Several calls in one answer. Unset: allowed natively and in nous (whose template upstream never limits), off in
   *  qwen (upstream's default, the single-call template). false keeps only the first call in every format. */
  parallel_function_calls?: boolean;
  /** 'auto' (default), 'none', the name of a function to force, or 'required' (native only: some call). */
  function_choice?: string;
  /** The server strips the opening <think>: treat content as reasoning until </think>. */
  thought_in_content?: boolean;
  /** false sends a non-streaming request (for servers that cannot stream tool calls). Default true. */
  stream?: boolean;
  /** Keep the provider's SSE chunks as received on the call's result (the inspector's "Raw stream"). */
  record_raw_stream?: boolean;
  /** Send the assistant's reasoning_content back in history (default true, as upstream). */
  send_reasoning?: boolean;
  /** Image items are sent as image_url parts instead of upload notes (vision models). */
  multimodal?: boolean;
  /** Images the latest step's tools produced (image items of the function results) are sent too, to a multimodal
   *  model; a model that is not is sent their text and the call says how many were withheld. Default false. */
  tool_images?: boolean;
  request_timeout_ms?: number;
  /** Upstream's name for the request timeout, in seconds (the openai client's `timeout`). */
  request_timeout?: number;
  idle_timeout_ms?: number;
  /** Merged into the request body's top level, as the Python openai client does (vLLM's chat_template_kwargs, …). */
  extra_body?: Record<string, unknown>;
  /** The prompts' language when the caller does not give one (an agent always does: its run's language). */
  lang?: Lang;
  /** Read when the model is made (they pick its function-call mode): true is 'native', else the template. */
  use_raw_api?: boolean;
  fncall_prompt_type?: 'nous' | 'qwen';
  [key: string]: unknown;
}

export interface ChatRequest {
  messages: Message[];
  functions?: FunctionDef[];
  signal?: AbortSignal;
  lang?: Lang;
  /** Merged over the model's own generate cfg; stop lists are unioned. */
  cfg?: GenerateCfg;
}

export type LlmStreamEvent =
  | {
      type: 'request';
      format: CallFormat;
      request: LlmRequest;
      truncation?: { inputTokens: number; budget: number; notes: string[] };
      /** Images of the input not sent, because the model is not multimodal (the turn says so). */
      imagesWithheld?: number;
      /** Tool images of the latest step not sent for the same reason (only when generate_cfg.tool_images asks). */
      toolImagesWithheld?: number;
    }
  | { type: 'retry'; attempt: number; delayMs: number; error: ErrorInfo }
  | { type: 'reasoning'; text: string }
  | { type: 'text'; text: string };

export interface LlmCallResult {
  /** Qwen-Agent's output messages: [reasoning msg?, text msg?, call msgs...]. */
  messages: Message[];
  finishReason: string;
  usage?: Usage;
  ttftMs?: number;
  durationMs: number;
  /** Present when the raw output differs from the streamed text (see the llm-end event). */
  raw?: { content: string; reasoning?: string; toolCalls?: { id: string; name: string; arguments: string }[] };
  parseErrors: string[];
  /** With record_raw_stream: the chunks as received. */
  rawStream?: RawStream;
}

export type LlmEventSink = (event: LlmStreamEvent) => void;

export interface ChatModel {
  readonly model: string;
  readonly fncallMode: FncallMode;
  /** The name of the connection the model is reached through (shown on each turn), when the app made it from one. */
  readonly connection?: string;
  /** Its prices and context length, when known (recorded in each run's run-start). */
  readonly pricing?: Pricing;
  readonly contextLength?: number;
  /** The input budget in tokens a call fits the conversation into (generate_cfg.max_input_tokens, else the
   *  configured default; <= 0: none), when the model knows it. A local model may fit into less (its context). */
  readonly maxInputTokens?: number;
  /** One model call. Progress (the request sent, retries, deltas) goes to `onEvent` as it happens. */
  chat(req: ChatRequest, onEvent?: LlmEventSink): Promise<LlmCallResult>;
  /** Embeddings through the same connection (vector search): its server's /embeddings with `model` (default: this
   *  model's name), or the local model's GGUF (`model`: another .gguf in the models folder). Absent: it makes none. */
  embedder?(model?: string): Embedder;
}
