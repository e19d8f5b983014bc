// An OpenAI-compatible chat model (vLLM, SGLang, Ollama, llama.cpp server, LM Studio, DashScope compatible mode,
// OpenAI) on the `openai` package. Streams, assembles tool calls, routes reasoning, enforces stop words, retries.
import OpenAI from 'openai';
import { blockedAddressIn, type AddressPolicy } from '../net/address-policy';
import { blockedPortMessage } from '../net/blocked-port';
import { boundedFetch, megabytes, responseTooLargeIn } from '../net/bounded-body';
import { guardedFetch, type FetchLike } from '../net/guarded-fetch';
import type { CallFormat, FncallMode } from '../protocol/enums';
import type { LlmRequest, Pricing, Usage } from '../protocol/events';
import { ServerEmbedder, type Embedder } from './embeddings';
import { errorInfo, isModelServiceError, ModelInputError, ModelServiceError, StreamInterruptedError } from './errors';
import {
  callLang,
  functionChoiceOf,
  addRequestParams,
  checkCallMode,
  checkGenerateCfg,
  parallelCalls,
  requestTimeoutMs,
  resolveFncallMode,
} from './generate-cfg';
import { functionsToText, getFncallFormat } from './fncall';
import type { FncallFormat, FncallFormatName } from './fncall/types';
import type { ChatModel, ChatRequest, GenerateCfg, LlmCallResult, LlmEventSink, LlmStreamEvent } from './model';
import { ToolCallAssembler, toWireMessages, toWireTools, type WireMessage, type WireTool } from './oai-wire';
import { abortError, isRetryableStatus, parseRetryAfter, retryDelayMs, sleep } from './retry';
import type { FunctionDef, Message } from './schema';
import { IdleWatch, type WatchedStream } from './idle-watch';
import { countRunSignalCall } from './run-signal';
import { StreamTextRouter } from './stream-text';
import { truncateInputMessages } from './truncate';
import { countTurnImages, withUploadInfo } from './upload-info';
import { countStepImages, latestStepStart } from './tool-images';
import { hasImages, inlineImages, urlImagesOnly, type ImageResolver } from './image-data';
import { RawStreamRecorder } from './raw-stream';
import { SseParser } from './sse';
import { redactKey } from './redact-key';

export interface OpenAIModelOptions {
  model?: string;
  baseURL?: string;
  apiKey?: string;
  /** Which addresses the server may be reached at, checked for each connection the client opens (default: any). */
  addressPolicy?: AddressPolicy;
  fncallMode?: FncallMode;
  generateCfg?: GenerateCfg;
  /** The connection's name, shown on each turn. */
  connection?: string;
  /** The model's prices and context length, when known (recorded in run-start). */
  pricing?: Pricing;
  contextLength?: number;
  /** Where image items' references are read when a request leaves (default: URLs only; see image-data.ts). */
  images?: ImageResolver;
  /** Defaults for knobs that come from the environment (see lib/config/index.ts). */
  defaults?: { maxRetries?: number; requestTimeoutMs?: number; idleTimeoutMs?: number; maxInputTokens?: number };
}

const MAX_API_STOP_WORDS = 4; // OpenAI rejects more; the rest are still enforced on the client.
/**
 * Most a model server's answer to one request may be (bytes on the wire): a 128k-token answer streamed in ~250-byte
 * chunks fits, and 64 embeddings of 4,096 dimensions take ~5 MB. A server that streams without end is cut here
 * instead of filling the server's memory (a run holds ~16 times what it streamed at its peak: events, their feed,
 * their store).
 */
export const MODEL_RESPONSE_MAX_BYTES = 32 * 1024 * 1024;
/**
 * Most one answer may say (characters of text, reasoning and tool-call arguments together): ~250k tokens, twice the
 * longest answer a model writes today (128k). Each answer is kept in the run's history and events and sent back
 * with the next call: a server answering 31 MB and a tool call each time held 2.4 GB for one run.
 */
export const MODEL_ANSWER_MAX_CHARS = 1_000_000;

interface Sent {
  response: Promise<unknown>;
  started: number;
  requestTimeout: number;
  /** With record_raw_stream (streamed calls): the chunks as they come. */
  recorder?: RawStreamRecorder;
}

interface Prepared {
  format: CallFormat;
  fncall?: FncallFormat;
  /** Several calls in one answer (false: only the first is kept). */
  parallel: boolean;
  /** function_choice 'none': tools were not offered, so a call the server still sends is dropped. */
  noTools: boolean;
  /** function_choice names a function: the prompt formats pre-fill its call. */
  forced: boolean;
  body: Record<string, unknown>;
  stop: string[];
  cfg: GenerateCfg;
  truncation?: { inputTokens: number; budget: number; notes: string[] };
  /** Image items left out because the model is not multimodal. */
  imagesWithheld: number;
  /** The latest step's tool images left out for the same reason (asked for with generate_cfg.tool_images). */
  toolImagesWithheld: number;
}

export class OpenAIChatModel implements ChatModel {
  readonly model: string;
  readonly fncallMode: FncallMode;
  readonly connection?: string;
  readonly pricing?: Pricing;
  readonly contextLength?: number;
  readonly generateCfg: GenerateCfg;
  /** The server's base URL (as given; the SDK's default, OpenAI, when unset). */
  readonly baseURL: string;
  private readonly client: OpenAI;
  /** What the client sends with: the connection's guarded fetch, or the global one (any address allowed); the
   *  client's fetch cuts its answers at MODEL_RESPONSE_MAX_BYTES. */
  private readonly sendFetch: FetchLike;
  /** The key sent, hidden in every error a call makes (a provider's 401 may repeat it). */
  private readonly apiKey?: string;
  private readonly defaults: Required<NonNullable<OpenAIModelOptions['defaults']>>;
  private readonly idleWatch = new IdleWatch();
  private readonly images: ImageResolver;
  private wireTools: { functions?: readonly FunctionDef[]; tools?: WireTool[] } = {};

  constructor(opts: OpenAIModelOptions = {}) {
    this.model = opts.model ?? 'gpt-4o-mini';
    this.generateCfg = opts.generateCfg ?? {};
    checkGenerateCfg(this.generateCfg);
    this.fncallMode = resolveFncallMode(opts.fncallMode, this.generateCfg, 'native');
    if (opts.connection) this.connection = opts.connection;
    if (opts.pricing) this.pricing = opts.pricing;
    if (opts.contextLength) this.contextLength = opts.contextLength;
    this.images = opts.images ?? urlImagesOnly;
    if (opts.apiKey) this.apiKey = opts.apiKey;
    this.defaults = {
      maxRetries: opts.defaults?.maxRetries ?? 2,
      requestTimeoutMs: opts.defaults?.requestTimeoutMs ?? 120_000,
      idleTimeoutMs: opts.defaults?.idleTimeoutMs ?? 60_000,
      maxInputTokens: opts.defaults?.maxInputTokens ?? 58_000,
    };
    this.sendFetch = opts.addressPolicy ? guardedFetch(opts.addressPolicy) : globalThis.fetch;
    // Retries and timeouts are ours (to report each retry and honour Retry-After); the SDK's stay off.
    this.client = new OpenAI({
      baseURL: opts.baseURL,
      apiKey: opts.apiKey || 'EMPTY',
      maxRetries: 0,
      timeout: this.defaults.requestTimeoutMs,
      fetch: boundedFetch(this.sendFetch, MODEL_RESPONSE_MAX_BYTES),
    });
    this.baseURL = this.client.baseURL;
  }

  get maxInputTokens(): number {
    return this.generateCfg.max_input_tokens ?? this.defaults.maxInputTokens;
  }

  /** POST {baseURL}/embeddings with `model` (default: this model's name), through this model's client. */
  embedder(model?: string): Embedder {
    return new ServerEmbedder(this.client, model || this.model, {
      toError: (e) => toModelError(e, { baseURL: this.baseURL, apiKey: this.apiKey }),
      maxRetries: this.defaults.maxRetries,
      timeoutMs: this.defaults.requestTimeoutMs,
    });
  }

  async chat(req: ChatRequest, onEvent: LlmEventSink = () => {}): Promise<LlmCallResult> {
    const outer = req.signal;
    if (!outer || countRunSignalCall(outer)) return this.call(req, onEvent);
    // A caller's own signal may outlive many calls, and the SDK leaves a listener on each request's signal: this
    // call gets a signal of its own, unhooked when the call is over (see run-signal.ts).
    const call = new AbortController();
    const abort = () => call.abort(outer.reason);
    if (outer.aborted) abort();
    else outer.addEventListener('abort', abort, { once: true });
    try {
      return await this.call({ ...req, signal: call.signal }, onEvent);
    } finally {
      outer.removeEventListener('abort', abort);
    }
  }

  private async call(req: ChatRequest, onEvent: LlmEventSink): Promise<LlmCallResult> {
    const prepared = this.prepare(req);
    // Built by assignment: this runs on every model call, and object spreads cost more than the rest of it.
    const params: Record<string, unknown> = {};
    for (const k in prepared.body)
      if (k !== 'model' && k !== 'messages' && k !== 'tools' && k !== 'stop') params[k] = prepared.body[k];
    const request: LlmRequest = {
      model: this.model,
      messages: prepared.body.messages as Record<string, unknown>[],
      params,
    };
    if (prepared.body.tools) request.tools = prepared.body.tools as Record<string, unknown>[];
    if (prepared.stop.length) request.stop = prepared.stop;
    const requestEvent: Extract<LlmStreamEvent, { type: 'request' }> = {
      type: 'request',
      format: prepared.format,
      request,
    };
    if (prepared.truncation) requestEvent.truncation = prepared.truncation;
    if (prepared.imagesWithheld) requestEvent.imagesWithheld = prepared.imagesWithheld;
    if (prepared.toolImagesWithheld) requestEvent.toolImagesWithheld = prepared.toolImagesWithheld;
    // The request leaves before the consumer hears of it, so its handling of llm-start overlaps the network wait
    // instead of adding to it.
    let sent: Sent | undefined = this.send(prepared, req.signal);
    onEvent(requestEvent);

    const maxRetries = prepared.cfg.max_retries ?? this.defaults.maxRetries;
    const progress = { emitted: false };
    for (let attempt = 0; ; attempt++) {
      try {
        const attemptSent = sent ?? this.send(prepared, req.signal);
        sent = undefined;
        return await this.callOnce(prepared, req.signal, progress, attemptSent, onEvent);
      } catch (e) {
        if (req.signal?.aborted) throw abortError();
        const err = toModelError(e, { baseURL: this.baseURL, apiKey: this.apiKey });
        if (!err.retryable || attempt >= maxRetries || progress.emitted) throw err;
        const delayMs = retryDelayMs(attempt + 1, err, prepared.cfg.retry_base_delay_ms ?? 1000);
        onEvent({ type: 'retry', attempt: attempt + 1, delayMs, error: errorInfo(err) });
        await sleep(delayMs, req.signal);
      }
    }
  }

  private prepare(req: ChatRequest): Prepared {
    if (!req.messages.length) throw new ModelInputError('messages must not be empty');
    if (req.cfg) {
      checkGenerateCfg(req.cfg);
      checkCallMode(this.fncallMode, req.cfg);
    }
    // Upstream's qwen-template model keeps the template's stop words in its own generate_cfg (after the config's), so
    // every call sends and enforces them, with tools or without.
    const own = this.fncallMode === 'qwen' ? mergeCfg(this.generateCfg, { stop: QWEN_STOP_WORDS }) : this.generateCfg;
    const cfg = req.cfg ? mergeCfg(own, req.cfg) : own; // read, never written
    // An agent always says (its run's language, as upstream's agents pass lang per call); a direct call may leave
    // it to generate_cfg.lang, then to the messages.
    const lang = callLang(req, cfg);
    const budget = cfg.max_input_tokens ?? this.defaults.maxInputTokens;
    const truncated = truncateInputMessages(req.messages, budget);
    let messages = truncated.messages;

    const functions = req.functions ?? [];
    const { choice, useTools } = functionChoiceOf(cfg, functions);
    if (useTools && choice === 'required' && this.fncallMode !== 'native')
      throw new ModelInputError(
        `function_choice 'required' needs the tools API (fncallMode 'native'); this model writes calls as text ('${this.fncallMode}').`,
      );
    const parallel = parallelCalls(cfg, this.fncallMode);
    // Images go to a multimodal model with or without tools (every call format keeps a user turn's image items), and
    // so do the latest step's tool images when asked (tool-images.ts); a model that cannot see is told neither.
    const multimodal = Boolean(cfg.multimodal);
    const imagesWithheld = multimodal ? 0 : countTurnImages(messages);
    const toolImages = cfg.tool_images === true;
    const toolImagesWithheld = toolImages && !multimodal ? countStepImages(messages) : 0;
    messages = withUploadInfo(messages, {
      lang,
      keepImages: multimodal,
      ...(toolImages && multimodal ? { keepToolImagesFrom: latestStepStart(messages) } : {}),
    });

    let format: CallFormat = 'none';
    let fncall: FncallFormat | undefined;
    const body: Record<string, unknown> = { model: this.model };
    if (useTools && this.fncallMode === 'native') {
      format = 'native';
      // An agent passes the same function list on every call of a run: converted once.
      if (functions !== this.wireTools.functions) this.wireTools = { functions, tools: toWireTools(functions) };
      body.tools = this.wireTools.tools;
      if (choice === 'required') body.tool_choice = 'required';
      else if (choice !== 'auto') body.tool_choice = { type: 'function', function: { name: choice } };
      if (cfg.parallel_function_calls === false) body.parallel_tool_calls = false;
    } else if (useTools) {
      fncall = getFncallFormat(this.fncallMode as FncallFormatName);
      format = fncall.name;
      messages = fncall.render(messages, functions, { lang, parallelFunctionCalls: parallel, functionChoice: choice });
    } else if (this.fncallMode !== 'native' && messages.some((m) => m.role === 'function' || m.function_call)) {
      // No tools this time: a prompt format turns past calls into text (upstream's _remove_fncall_messages); the
      // tools API keeps them as tool_calls and tool messages, as upstream's use_raw_api does.
      messages = functionsToText(messages, lang);
    }
    body.messages = continueAssistant(toWireMessages(messages, { sendReasoning: cfg.send_reasoning ?? true, lang }));

    const stop =
      fncall?.stopWords.length || (cfg.stop?.length ?? 0) > 1
        ? [...new Set([...(cfg.stop ?? []), ...(fncall?.stopWords ?? [])])]
        : (cfg.stop ?? []);
    if (stop.length) body.stop = stop.slice(0, MAX_API_STOP_WORDS);
    body.seed = cfg.seed ?? Math.floor(Math.random() * 2 ** 30);
    addRequestParams(body, cfg);
    if (cfg.stream !== false) {
      body.stream = true;
      body.stream_options = { include_usage: true };
    }
    const truncation = truncated.notes.length
      ? { inputTokens: truncated.inputTokens, budget, notes: truncated.notes }
      : undefined;
    const noTools = functions.length > 0 && choice === 'none';
    const forced = useTools && choice !== 'auto' && choice !== 'required';
    return {
      format,
      fncall,
      parallel,
      noTools,
      forced,
      body,
      stop,
      cfg,
      truncation,
      imagesWithheld,
      toolImagesWithheld,
    };
  }

  /** Sends the request. The SDK's own timeout covers the wait for response headers. */
  private send(p: Prepared, signal: AbortSignal | undefined): Sent {
    const requestTimeout = requestTimeoutMs(p.cfg, this.defaults.requestTimeoutMs);
    const options =
      requestTimeout === this.defaults.requestTimeoutMs
        ? signal
          ? { signal }
          : undefined
        : { signal, timeout: requestTimeout };
    const started = performance.now();
    const recorder = p.cfg.record_raw_stream && p.body.stream ? new RawStreamRecorder(started) : undefined;
    // The body keeps image references (the request event shows it); the copy that leaves carries the images. A
    // streamed answer is read as it comes (the raw Response, its events parsed in callOnce); the rest the SDK parses.
    const create = (body: Record<string, unknown>): Promise<unknown> => {
      const made = this.client.chat.completions.create(body as never, options);
      return body.stream ? made.asResponse() : made;
    };
    const wire = p.body.messages as WireMessage[];
    // Without images the request leaves now, before the caller handles llm-start, not a promise turn later.
    const response: Promise<unknown> = hasImages(wire)
      ? inlineImages(wire, this.images).then((messages) => create({ ...p.body, messages }))
      : createNow(() => create(p.body));
    response.catch(() => {}); // handled where it is awaited; this only keeps Node from calling it unhandled meanwhile
    return { response, started, requestTimeout, recorder };
  }

  private async callOnce(
    p: Prepared,
    signal: AbortSignal | undefined,
    progress: { emitted: boolean },
    sent: Sent,
    onEvent: LlmEventSink,
  ): Promise<LlmCallResult> {
    const emit = (out: { reasoning: string; text: string }) => {
      if (out.reasoning) {
        progress.emitted = true;
        onEvent({ type: 'reasoning', text: out.reasoning });
      }
      if (out.text) {
        progress.emitted = true;
        onEvent({ type: 'text', text: out.text });
      }
    };
    const { started, requestTimeout } = sent;
    const idleTimeout = p.cfg.idle_timeout_ms ?? this.defaults.idleTimeoutMs;
    // The idle watchdog covers silence mid-stream; the per-chunk cost is one clock read.
    let idleFired = false;
    const watched: WatchedStream = { lastActivity: started, idleTimeoutMs: idleTimeout, onIdle: () => {} };
    const timeoutError = (cause?: unknown) =>
      idleFired
        ? new ModelServiceError(`Model request timed out: the stream was idle for ${idleTimeout} ms.`, {
            retryable: true,
            code: 'model-idle',
            values: { ms: idleTimeout },
            cause,
          })
        : new ModelServiceError(`Model request timed out: no response within ${requestTimeout} ms.`, {
            retryable: true,
            code: 'model-timeout',
            values: { ms: requestTimeout },
            cause,
          });

    const router = new StreamTextRouter({
      stopWords: p.stop,
      toolStartMarker: p.forced ? (p.fncall?.forcedCallMarker ?? p.fncall?.toolStartMarker) : p.fncall?.toolStartMarker,
      thoughtInContent: p.cfg.thought_in_content,
      dropLeading: p.fncall?.continuationPrefixes,
    });
    const calls = new ToolCallAssembler();
    let apiReasoning = '';
    let finishReason: string | undefined;
    let usage: Usage | undefined;
    let ttftMs: number | undefined;
    const firstToken = () => (ttftMs ??= performance.now() - started);
    let said = 0;
    const count = (chars: number) => {
      said += chars;
      if (said > MODEL_ANSWER_MAX_CHARS)
        throw new ModelServiceError(
          `The model's answer passed ${MODEL_ANSWER_MAX_CHARS.toLocaleString('en')} characters without ending: it was cut there.`,
          { retryable: false, code: 'answer-too-long', values: { chars: MODEL_ANSWER_MAX_CHARS } },
        );
    };

    try {
      if (p.cfg.stream === false) {
        const res = await sent.response;
        const completion = res as unknown as OpenAI.Chat.Completions.ChatCompletion;
        const choice = completion.choices?.[0];
        const msg = (choice?.message ?? {}) as {
          content?: string | null;
          reasoning_content?: string;
          reasoning?: string;
          tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
        };
        firstToken();
        apiReasoning = msg.reasoning_content ?? msg.reasoning ?? '';
        count(apiReasoning.length + (msg.content?.length ?? 0));
        for (const tc of msg.tool_calls ?? []) count(tc.function?.arguments?.length ?? 0);
        emit({ reasoning: apiReasoning, text: '' });
        emit(router.push(msg.content ?? ''));
        msg.tool_calls?.forEach((tc, index) => calls.push({ index, id: tc.id, function: tc.function }));
        finishReason = router.stopped ? 'stop' : (choice?.finish_reason ?? undefined);
        usage = toUsage(completion.usage);
      } else {
        const res = (await sent.response) as Response;
        // The bounded body (lib/net/bounded-body.ts); none at all reads as a stream that ended before finishing.
        const body = res.body as (ReadableStream<Uint8Array> & AsyncIterable<Uint8Array>) | null;
        watched.lastActivity = performance.now();
        watched.onIdle = () => {
          idleFired = true;
          void body?.cancel().catch(() => {}); // a read waiting on the silent server ends at once
        };
        this.idleWatch.watch(watched);
        let done = false;
        const onChunk = (chunk: OpenAI.Chat.Completions.ChatCompletionChunk) => {
          if (chunk.usage) usage = toUsage(chunk.usage);
          const choice = chunk.choices?.[0];
          if (!choice) return;
          const delta = choice.delta as {
            content?: string | null;
            reasoning_content?: string | null;
            reasoning?: string | null;
            tool_calls?: Parameters<ToolCallAssembler['push']>[0][];
          };
          const reasoning = delta.reasoning_content ?? delta.reasoning;
          if (reasoning) {
            count(reasoning.length);
            firstToken();
            apiReasoning += reasoning;
            emit({ reasoning, text: '' });
          }
          if (delta.content) {
            count(delta.content.length);
            firstToken();
            emit(router.push(delta.content));
            if (router.stopped) {
              finishReason = 'stop';
              done = true; // client-side stop: leaving the read below drops the connection
              return;
            }
          }
          if (delta.tool_calls?.length) {
            firstToken();
            for (const tc of delta.tool_calls) {
              count((tc.function?.arguments?.length ?? 0) + (tc.function?.name?.length ?? 0));
              calls.push(tc);
            }
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        };
        // As the SDK's Stream: past [DONE] nothing counts; an `error` in a chunk is the server's error.
        const parser = new SseParser(
          (event, data) => {
            if (done) return;
            if (data.startsWith('[DONE]')) {
              done = true;
              return;
            }
            const chunk = JSON.parse(data) as OpenAI.Chat.Completions.ChatCompletionChunk & { error?: unknown };
            // The Assistants API's events, and JSON that is no object, are no chat chunk.
            if (event?.startsWith('thread.') || typeof chunk !== 'object' || !chunk) return;
            if (chunk.error) throw new OpenAI.APIError(undefined, chunk.error as object, undefined, res.headers);
            onChunk(chunk);
          },
          sent.recorder && ((data) => sent.recorder!.add(data)),
        );
        if (body) {
          const decoder = new TextDecoder();
          for await (const bytes of body) {
            watched.lastActivity = performance.now();
            parser.push(decoder.decode(bytes, { stream: true }));
            if (router.stopped) break;
          }
          if (!router.stopped && !idleFired) {
            parser.push(decoder.decode());
            parser.end();
          }
        }
      }
    } catch (e) {
      if (signal?.aborted) throw abortError();
      if (idleFired || e instanceof OpenAI.APIConnectionTimeoutError) throw timeoutError(e);
      throw e;
    } finally {
      this.idleWatch.unwatch(watched);
    }
    if (signal?.aborted) throw abortError();
    if (idleFired) throw timeoutError();
    if (!finishReason) {
      throw new StreamInterruptedError(
        'The model server ended the stream before finishing (no finish_reason): the connection was cut or the server stopped.',
        { retryable: true, code: 'model-stream-cut' },
      );
    }

    const routed = router.finish();
    emit(routed.tail);

    const reasoning = apiReasoning + routed.reasoning;
    const messages: Message[] = [];
    if (reasoning) messages.push({ role: 'assistant', content: '', reasoning_content: reasoning });
    if (routed.text.trim()) messages.push({ role: 'assistant', content: routed.text });
    const parseErrors: string[] = [];
    const nativeCalls = calls.result();
    if (p.fncall) {
      const parsed = p.fncall.parse(routed.toolSource, {
        parallelFunctionCalls: p.parallel,
        functionChoice: p.cfg.function_choice,
      });
      parseErrors.push(...parsed.errors);
      messages.push(...parsed.messages.filter((m) => m.function_call));
    } else if (p.noTools && nativeCalls.length) {
      parseErrors.push(`function_choice is 'none', yet the server sent ${nativeCalls.length} tool call(s): dropped.`);
    } else {
      // A server may ignore parallel_tool_calls: false; only the first call is kept then, as in the text formats.
      const kept = p.parallel ? nativeCalls : nativeCalls.slice(0, 1);
      if (kept.length < nativeCalls.length)
        parseErrors.push(`Parallel calls are off: kept the first call, dropped ${nativeCalls.length - 1}.`);
      for (const c of kept) {
        messages.push({
          role: 'assistant',
          content: '',
          function_call: { name: c.name, arguments: c.arguments },
          extra: { function_id: c.id },
        });
      }
    }
    if (calls.size > nativeCalls.length) parseErrors.push('a streamed tool call had no function name and was dropped');

    const result: LlmCallResult = {
      messages,
      finishReason,
      usage,
      ttftMs,
      durationMs: performance.now() - started,
      parseErrors,
    };
    if (sent.recorder) result.rawStream = sent.recorder.result();
    if (routed.raw !== routed.text || nativeCalls.length > 0) {
      const raw: NonNullable<LlmCallResult['raw']> = { content: routed.raw };
      if (apiReasoning) raw.reasoning = apiReasoning;
      if (nativeCalls.length) raw.toolCalls = nativeCalls;
      result.raw = raw;
    }
    return result;
  }
}

/** The SDK's request promise, with a synchronous throw as its rejection (as it would be a promise turn later). */
function createNow(create: () => Promise<unknown>): Promise<unknown> {
  try {
    return create();
  } catch (e) {
    return Promise.reject(e);
  }
}

const QWEN_STOP_WORDS = getFncallFormat('qwen').stopWords;

function mergeCfg(base: GenerateCfg, extra: GenerateCfg | undefined): GenerateCfg {
  if (!extra) return { ...base };
  const merged: GenerateCfg = { ...base, ...extra };
  if (base.stop || extra.stop) merged.stop = [...new Set([...(base.stop ?? []), ...(extra.stop ?? [])])];
  return merged;
}

/** A chat endpoint cannot continue an assistant message: fold a trailing assistant message into the user message
 *  before it (Qwen-Agent's simulate_response_completion_with_chat). */
function continueAssistant(wire: WireMessage[]): WireMessage[] {
  const last = wire[wire.length - 1];
  const prev = wire[wire.length - 2];
  if (last?.role !== 'assistant' || last.tool_calls || prev?.role !== 'user' || typeof prev.content !== 'string')
    return wire;
  const partial = (last.content ?? '').replace(/: $/, ':');
  return [...wire.slice(0, -2), { role: 'user', content: `${prev.content}\n\n${partial}` }];
}

function toUsage(
  u: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined,
): Usage | undefined {
  if (!u) return undefined;
  const promptTokens = u.prompt_tokens ?? 0;
  const completionTokens = u.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: u.total_tokens ?? promptTokens + completionTokens };
}

/** The most of a provider's own error message a run's error repeats. */
const PROVIDER_MESSAGE_CHARS = 300;

/** A provider's `error.message`, on one line and cut short: the only words of the server's a run's error repeats (a
 *  body that is not an OpenAI-style error, an HTML page say, is never repeated). */
function providerMessage(body: { message?: unknown }): string | undefined {
  if (typeof body.message !== 'string' || !body.message.trim()) return undefined;
  const line = body.message.replace(/\s+/g, ' ').trim();
  return line.length > PROVIDER_MESSAGE_CHARS ? `${line.slice(0, PROVIDER_MESSAGE_CHARS)}…` : line;
}

/** Any failure of a call to the server at `baseURL`, as a ModelServiceError that knows whether it may be retried,
 *  with `apiKey` (the key the call sent) hidden in its message: from here it reaches the run's events, the page, /v1,
 *  the inspector and the logs. */
export function toModelError(e: unknown, sent: { baseURL?: string; apiKey?: string } = {}): ModelServiceError {
  const err = modelError(e, sent.baseURL ?? '');
  const message = redactKey(err.message, sent.apiKey);
  if (message === err.message) return err;
  // Made again without its cause: the SDK's error, kept as the cause, still holds the provider's words.
  const values = err.values
    ? Object.fromEntries(
        Object.entries(err.values).map(([k, v]) => [k, typeof v === 'string' ? redactKey(v, sent.apiKey) : v]),
      )
    : undefined;
  return new ModelServiceError(message, {
    status: err.status,
    code: err.code,
    values,
    retryable: err.retryable,
    retryAfterMs: err.retryAfterMs,
  });
}

function modelError(e: unknown, baseURL: string): ModelServiceError {
  if (isModelServiceError(e)) return e;
  // The address policy refused the server's address (lib/net/guarded-fetch.ts): said as it is, never retried.
  const blocked = blockedAddressIn(e);
  if (blocked)
    return new ModelServiceError(blocked.message, {
      retryable: false,
      code: 'address-refused',
      values: { host: hostOf(baseURL) },
      cause: e,
    });
  // An answer without end: asking again would get another.
  const tooLarge = responseTooLargeIn(e);
  if (tooLarge)
    return new ModelServiceError(
      `The model server's answer passed ${megabytes(tooLarge.limitBytes)} without ending: it was cut there.`,
      { retryable: false, code: 'response-too-large', values: { size: megabytes(tooLarge.limitBytes) }, cause: e },
    );
  // A port fetch never connects to: retrying cannot help, and "fetch failed" would read like a server that is down.
  const badPort = blockedPortMessage(e, baseURL);
  if (badPort)
    return new ModelServiceError(`Cannot reach the model server: ${badPort}`, {
      retryable: false,
      code: 'model-unreachable',
      values: { detail: badPort },
      cause: e,
    });
  if (e instanceof OpenAI.APIConnectionError) {
    const detail = `${e.message}${causeText(e)}`;
    return new ModelServiceError(`Cannot reach the model server: ${detail}`, {
      retryable: true,
      code: 'model-unreachable',
      values: { detail },
      cause: e,
    });
  }
  if (e instanceof OpenAI.APIError) {
    const body = (e.error ?? {}) as { message?: unknown; code?: string; type?: string };
    const said = providerMessage(body);
    // Whether to retry is judged on everything the server said; only `said` is repeated.
    const detail = typeof body.message === 'string' ? body.message : e.message;
    const status = e.status;
    const providerCode = body.code ?? body.type ?? undefined;
    const headers = e.headers as Headers | undefined;
    const retryAfterMs =
      headers && typeof headers.get === 'function' ? parseRetryAfter((n) => headers.get(n)) : undefined;
    // An error event inside a 200 stream has no status: judge it by its code.
    const streamRetryable =
      status === undefined &&
      /rate.?limit|overload|server.?error|internal|unavailable|timeout/i.test(`${providerCode} ${detail}`);
    const retryable = isRetryableStatus(status, detail) || streamRetryable;
    const prefix = status ? `Model server error ${status}` : 'Model server error';
    // The server's own code is not one of ours: the error carries ours, with its status and words as values.
    const code = status
      ? said
        ? 'model-http'
        : 'model-http-silent'
      : said
        ? 'model-stream-error'
        : 'model-stream-error-silent';
    return new ModelServiceError(`${prefix}: ${said ?? 'the server gave no error message.'}`, {
      status,
      code,
      values: { ...(status ? { status } : {}), ...(said ? { detail: said } : {}) },
      retryable,
      retryAfterMs,
      cause: e,
    });
  }
  if (e instanceof Error) {
    // fetch failures that the SDK did not wrap (socket closed mid-body, DNS...)
    const network = /terminated|ECONNRESET|ECONNREFUSED|socket|network|fetch failed|premature/i.test(
      `${e.message}${causeText(e)}`,
    );
    if (!network) return new ModelServiceError(e.message, { cause: e });
    const detail = `${e.message}${causeText(e)}`;
    return new ModelServiceError(`The connection to the model server failed: ${detail}`, {
      retryable: true,
      code: 'model-disconnected',
      values: { detail },
      cause: e,
    });
  }
  return new ModelServiceError(String(e));
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).hostname;
  } catch {
    return baseURL;
  }
}

function causeText(e: Error): string {
  const cause = (e as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message && !e.message.includes(cause.message) ? ` (${cause.message})` : '';
}
