// The built-in local model: a GGUF file run by llama.cpp (node-llama-cpp) in a worker thread, behind the same
// ChatModel interface as a model server. Prompts go through the model's own chat template; tool calls are native
// (node-llama-cpp's function calling, in the template's syntax) or a text format (nous, qwen) that the fncall layer
// writes and parses; a required call is produced under a JSON-schema grammar, so it always parses.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { defaultConfig } from '../../config';
import type { CallFormat, FncallMode } from '../../protocol/enums';
import type { LlmRequest, Usage } from '../../protocol/events';
import { isModelServiceError, ModelInputError, ModelServiceError } from '../errors';
import { functionsToText, getFncallFormat } from '../fncall';
import type { FncallFormat } from '../fncall/types';
import type { Embedder } from '../embeddings';
import type { ChatModel, ChatRequest, GenerateCfg, LlmCallResult, LlmEventSink } from '../model';
import { toWireMessages, toWireTools } from '../oai-wire';
import { abortError } from '../retry';
import type { FunctionDef, Message } from '../schema';
import { StreamTextRouter } from '../stream-text';
import { callLang, functionChoiceOf, parallelCalls } from '../generate-cfg';
import { truncateInputMessages } from '../truncate';
import { countTurnImages, withUploadInfo } from '../upload-info';
import { countStepImages } from '../tool-images';
import { toChatHistory } from './chat-history';
import { nousCallSchema, toGrammarSchema } from './grammar-schema';
import { localModelName } from './model-name';
import { localModelHost, type LocalModelHost } from './worker-host';
import {
  loadOptionsFrom,
  type ForcedCall,
  type LoadedModelInfo,
  type LoadOptions,
  type WorkerFunctions,
} from './worker-protocol';

export interface LocalModelOptions {
  /** The GGUF file (absolute path; see resolveLocalModel in models-dir.ts for names under DATA_DIR/models). */
  file: string;
  /** The name requests and events report (default: the file name without .gguf). */
  model?: string;
  fncallMode?: FncallMode;
  generateCfg?: GenerateCfg;
  /**
   * How llama.cpp runs it. What is left out takes the LOCAL_MODEL_* settings' defaults; nothing here reads the
   * environment (the server passes loadOptionsFrom(config.localModels)).
   */
  load?: Partial<LoadOptions>;
  /** Default input budget, as MAX_INPUT_TOKENS (it is also kept within the context size). */
  maxInputTokens?: number;
  /** The worker host (default: the process's). */
  host?: LocalModelHost;
}

/** Tokens an answer may take when max_tokens is not set (and at most half the context). */
export const DEFAULT_MAX_TOKENS = 2048;
/** Sampling when the generate cfg sets none: what Qwen's instruct models recommend. */
const DEFAULT_SAMPLING = { temperature: 0.7, top_p: 0.8, top_k: 20 };
const NOUS_PREFIX = '<tool_call>\n';
const NOUS_SUFFIX = '\n</tool_call>';

function mergeCfg(base: GenerateCfg, extra: GenerateCfg | undefined): GenerateCfg {
  if (!extra) return base;
  const merged: GenerateCfg = { ...base, ...extra };
  if (base.stop || extra.stop) merged.stop = [...new Set([...(base.stop ?? []), ...(extra.stop ?? [])])];
  return merged;
}

function finishReasonOf(stopReason: string): string {
  if (stopReason === 'maxTokens') return 'length';
  if (stopReason === 'functionCalls') return 'tool_calls';
  return 'stop';
}

interface Prepared {
  format: CallFormat;
  fncall?: FncallFormat;
  rendered: Message[];
  functions?: WorkerFunctions;
  forced?: ForcedCall;
  request: LlmRequest;
  stop: string[];
  maxTokens: number;
  cfg: GenerateCfg;
  truncation?: { inputTokens: number; budget: number; notes: string[] };
  /** The built-in model sees no images: those of the input are not sent. */
  imagesWithheld: number;
  toolImagesWithheld: number;
}

export class LocalChatModel implements ChatModel {
  readonly model: string;
  readonly fncallMode: FncallMode;
  readonly generateCfg: GenerateCfg;
  readonly file: string;
  readonly loadOptions: LoadOptions;
  private readonly host: LocalModelHost;
  private readonly inputBudget: number;

  constructor(opts: LocalModelOptions) {
    this.file = path.resolve(/*turbopackIgnore: true*/ opts.file);
    this.model = opts.model ?? localModelName(this.file);
    this.fncallMode = opts.fncallMode ?? 'native';
    this.generateCfg = opts.generateCfg ?? {};
    this.loadOptions = { ...loadOptionsFrom(defaultConfig().localModels), ...opts.load };
    this.host = opts.host ?? localModelHost();
    this.inputBudget = opts.maxInputTokens ?? 58_000;
  }

  /** The configured budget; a call fits into less when the context leaves less (see prepare()). */
  get maxInputTokens(): number {
    return this.generateCfg.max_input_tokens ?? this.inputBudget;
  }

  /** Loads the model (once per file) and says how it runs: context size, GPU, whether its template has tools. */
  info(): Promise<LoadedModelInfo> {
    return this.host.load(this.file, this.loadOptions);
  }

  /** Vectors from this model's GGUF, or from `model`: another .gguf file in the same folder (a name, no path). */
  embedder(model?: string): Embedder {
    const name = model?.trim();
    if (name && (path.basename(name) !== name || !name.toLowerCase().endsWith('.gguf')))
      throw new ModelInputError(`The embedding model "${name}" is not a .gguf file name in the models folder.`);
    const file = name ? path.join(path.dirname(this.file), name) : this.file;
    return {
      id: `local:${path.basename(file)}`,
      embed: (texts) => this.host.embed(file, this.loadOptions, [...texts]),
    };
  }

  /** Exact token count of `text` in the model's tokenizer. */
  async countTokens(text: string): Promise<number> {
    await this.info();
    return this.host.countTokens(this.file, this.loadOptions, text);
  }

  /** Exact token count of the prompt `messages` (and `functions`) become, rendered as chat() renders them. */
  async countPromptTokens(messages: Message[], functions: FunctionDef[] = []): Promise<number> {
    const p = await this.prepare({ messages, functions });
    return this.host.countPromptTokens(this.file, this.loadOptions, toChatHistory(p.rendered), p.functions);
  }

  async chat(req: ChatRequest, onEvent: LlmEventSink = () => {}): Promise<LlmCallResult> {
    const started = performance.now();
    const p = await this.prepare(req);
    onEvent({
      type: 'request',
      format: p.format,
      request: p.request,
      ...(p.truncation ? { truncation: p.truncation } : {}),
      ...(p.imagesWithheld ? { imagesWithheld: p.imagesWithheld } : {}),
      ...(p.toolImagesWithheld ? { toolImagesWithheld: p.toolImagesWithheld } : {}),
    });

    const router = new StreamTextRouter({
      stopWords: p.stop,
      toolStartMarker: p.fncall?.toolStartMarker,
      dropLeading: p.fncall?.continuationPrefixes,
    });
    // Stop words end the generation here too (the worker stops at them; this catches one split across chunks).
    const stopped = new AbortController();
    const signal = req.signal ? AbortSignal.any([req.signal, stopped.signal]) : stopped.signal;
    let ttftMs: number | undefined;
    let reasoning = '';
    const call = this.host.chat(
      {
        path: this.file,
        load: this.loadOptions,
        history: toChatHistory(p.rendered),
        functions: p.functions,
        forced: p.forced,
        sampling: {
          maxTokens: p.maxTokens,
          temperature: p.cfg.temperature,
          topP: p.cfg.top_p,
          topK: p.cfg.top_k,
          seed: p.cfg.seed,
          stop: p.stop,
        },
      },
      (chunk) => {
        ttftMs ??= performance.now() - started;
        if (chunk.kind === 'reasoning') {
          reasoning += chunk.text;
          onEvent({ type: 'reasoning', text: chunk.text });
          return;
        }
        if (router.stopped) return;
        const out = router.push(chunk.text);
        if (out.reasoning) onEvent({ type: 'reasoning', text: out.reasoning });
        if (out.text) onEvent({ type: 'text', text: out.text });
        if (router.stopped) stopped.abort();
      },
      signal,
    );
    let result: Awaited<typeof call>;
    try {
      result = await call;
    } catch (e) {
      if (req.signal?.aborted) throw abortError();
      if (isModelServiceError(e)) throw e;
      const detail = e instanceof Error ? e.message : String(e);
      throw new ModelServiceError(`The local model failed: ${detail}`, {
        code: 'local-model-failed',
        values: { detail },
        cause: e,
      });
    }
    if (req.signal?.aborted) throw abortError();

    const routed = router.finish();
    if (routed.tail.reasoning) onEvent({ type: 'reasoning', text: routed.tail.reasoning });
    if (routed.tail.text) onEvent({ type: 'text', text: routed.tail.text });
    const allReasoning = reasoning + routed.reasoning;
    const messages: Message[] = [];
    if (allReasoning) messages.push({ role: 'assistant', content: '', reasoning_content: allReasoning });
    if (routed.text.trim()) messages.push({ role: 'assistant', content: routed.text });
    const parseErrors: string[] = [];
    const toolCalls = result.functionCalls.map((c) => ({
      id: `call_${randomUUID().slice(0, 8)}`,
      name: c.name,
      arguments: JSON.stringify(c.params ?? {}),
    }));
    if (p.fncall) {
      const parsed = p.fncall.parse(routed.toolSource, {
        parallelFunctionCalls: parallelCalls(p.cfg, this.fncallMode),
        functionChoice: p.cfg.function_choice,
      });
      parseErrors.push(...parsed.errors);
      messages.push(...parsed.messages.filter((m) => m.function_call));
    } else {
      for (const c of toolCalls)
        messages.push({
          role: 'assistant',
          content: '',
          function_call: { name: c.name, arguments: c.arguments },
          extra: { function_id: c.id },
        });
    }
    const usage: Usage = {
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
      totalTokens: result.promptTokens + result.completionTokens,
    };
    const out: LlmCallResult = {
      messages,
      finishReason: router.stopped ? 'stop' : finishReasonOf(result.stopReason),
      usage,
      ttftMs: ttftMs ?? result.ttftMs,
      durationMs: performance.now() - started,
      parseErrors,
    };
    const rawContent = p.fncall ? routed.raw : routed.raw + result.functionCalls.map((c) => c.raw).join('');
    if (rawContent !== routed.text || toolCalls.length) {
      out.raw = { content: rawContent };
      if (toolCalls.length) out.raw.toolCalls = toolCalls;
    }
    return out;
  }

  private async prepare(req: ChatRequest): Promise<Prepared> {
    if (!req.messages.length) throw new ModelInputError('messages must not be empty');
    const cfg = mergeCfg({ ...DEFAULT_SAMPLING, ...this.generateCfg }, req.cfg);
    const info = await this.info();
    const maxTokens = Math.max(1, Math.min(cfg.max_tokens ?? DEFAULT_MAX_TOKENS, Math.floor(info.contextSize / 2)));
    const lang = callLang(req, cfg);
    // The prompt and the answer share the context: the input keeps to what the answer leaves.
    const configured = cfg.max_input_tokens ?? this.inputBudget;
    const budget = configured > 0 ? Math.min(configured, info.contextSize - maxTokens) : info.contextSize - maxTokens;
    const truncated = truncateInputMessages(req.messages, budget);
    let messages = truncated.messages;

    const functions = req.functions ?? [];
    const { choice, useTools, forcedName, required } = functionChoiceOf(cfg, functions);
    const imagesWithheld = countTurnImages(messages);
    // The built-in model sees no images: tool images asked for are counted as withheld (the turn says so).
    const toolImagesWithheld = cfg.tool_images === true ? countStepImages(messages) : 0;
    messages = withUploadInfo(messages, { lang, keepImages: false });

    let format: CallFormat = 'none';
    let fncall: FncallFormat | undefined;
    let workerFunctions: WorkerFunctions | undefined;
    let forced: ForcedCall | undefined;
    const request: LlmRequest = { model: this.model, messages: [], params: {} };
    if (useTools && this.fncallMode === 'native') {
      format = 'native';
      workerFunctions = {};
      const offered = forcedName ? functions.filter((f) => f.name === forcedName) : functions;
      for (const f of offered)
        workerFunctions[f.name] = { description: f.description, params: toGrammarSchema(f.parameters) };
      if (required) forced = { kind: 'native', ...(forcedName ? { name: forcedName } : {}) };
      request.tools = toWireTools(functions) as unknown as Record<string, unknown>[];
    } else if (useTools) {
      fncall = getFncallFormat(this.fncallMode as 'nous' | 'qwen');
      format = fncall.name;
      if (fncall.name === 'nous') {
        // The nous prompt offers every function; the grammar (below) makes the call when one is required.
        messages = fncall.render(messages, functions, { lang, parallelFunctionCalls: true, functionChoice: 'auto' });
        if (required) {
          const offered = forcedName ? functions.filter((f) => f.name === forcedName) : functions;
          forced = { kind: 'text', prefix: NOUS_PREFIX, schema: nousCallSchema(offered), suffix: NOUS_SUFFIX };
        }
      } else {
        if (choice === 'required')
          throw new ModelInputError("function_choice 'required' needs the nous or native format on a local model");
        messages = fncall.render(messages, functions, {
          lang,
          parallelFunctionCalls: parallelCalls(cfg, this.fncallMode),
          functionChoice: choice,
        });
      }
    } else if (messages.some((m) => m.role === 'function' || m.function_call)) {
      messages = functionsToText(messages, lang);
    }

    // The qwen template's stop words end every call, with tools or without, as upstream's qwen model keeps them.
    const templateStops = this.fncallMode === 'qwen' ? getFncallFormat('qwen').stopWords : (fncall?.stopWords ?? []);
    const stop = [...new Set([...(cfg.stop ?? []), ...templateStops])];
    request.messages = toWireMessages(messages) as unknown as Record<string, unknown>[];
    request.params = {
      max_tokens: maxTokens,
      ...(cfg.temperature !== undefined ? { temperature: cfg.temperature } : {}),
      ...(cfg.top_p !== undefined ? { top_p: cfg.top_p } : {}),
      ...(cfg.top_k !== undefined ? { top_k: cfg.top_k } : {}),
      ...(cfg.seed !== undefined ? { seed: cfg.seed } : {}),
      ...(forced ? { grammar: forcedName ? `a call of ${forcedName}` : 'a call of one of the functions' } : {}),
    };
    if (stop.length) request.stop = stop;
    const truncation = truncated.notes.length
      ? { inputTokens: truncated.inputTokens, budget, notes: truncated.notes }
      : undefined;
    return {
      format,
      fncall,
      rendered: messages,
      functions: workerFunctions,
      forced,
      request,
      stop,
      maxTokens,
      cfg,
      truncation,
      imagesWithheld,
      toolImagesWithheld,
    };
  }
}
