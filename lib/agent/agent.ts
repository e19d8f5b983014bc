// Agent: the run wrapper every agent shares (Qwen-Agent's Agent.run), built on one event stream.
import { randomUUID } from 'node:crypto';
import {
  BaseTool,
  checkTool,
  createTool,
  runTool,
  unknownToolResult,
  ToolServiceError,
  type ToolContext,
  type ToolRunResult,
} from '../../tools';
import { loadConfig } from '../config';
import { parseMcpConfig } from '../mcp/config';
import { errorInfo } from '../llm/openai-model';
import type { ChatModel, GenerateCfg, LlmCallResult } from '../llm/model';
import { OpenAIChatModel } from '../llm/openai-model';
import { isAbortError } from '../llm/retry';
import { runAbortController } from '../llm/run-signal';
import { detectLang, toMessages, type FunctionDef, type Lang, type Message } from '../llm/schema';
import { collectFileRefs } from '../llm/upload-info';
import type {
  AgentEvent,
  AgentEventType,
  ErrorInfo,
  EventOf,
  ReplayInfo,
  ToolDecision,
  Usage,
} from '../protocol/events';
import type { FncallMode, StopReason } from '../protocol/enums';
import { MessageFold } from './fold';

export interface LlmOptions {
  model?: string;
  baseURL?: string;
  apiKey?: string;
  fncallMode?: FncallMode;
  generateCfg?: GenerateCfg;
}

/** What Qwen-Agent's function_list takes: a registered tool name, a {name, ...cfg} object, or a tool instance. */
export type ToolSpec =
  string | BaseTool | ({ name: string } & Record<string, unknown>) | { mcpServers: Record<string, unknown> };

export interface AgentOptions {
  llm?: LlmOptions | ChatModel;
  functionList?: readonly ToolSpec[];
  systemMessage?: string;
  name?: string;
  description?: string;
  /** Files every run can use (Qwen-Agent's system files), besides those referenced in the messages. */
  files?: readonly string[];
  /** Model calls per run (default MAX_LLM_CALL_PER_RUN, 20). */
  maxLlmCalls?: number;
}

export interface RunOptions {
  signal?: AbortSignal;
  lang?: Lang;
  runId?: string;
  conversationId?: string;
  /** Where file-aware tools stage files (default DATA_DIR/work/<conversationId>/<tool>). */
  workDir?: string;
  /** Merged over the model's generate cfg for this run. */
  generateCfg?: GenerateCfg;
  /** Continue a stored run from an iteration instead of starting afresh (see lib/replay). FnCallAgent loops only:
   *  a ReAct transcript is one message, which this does not rebuild. */
  resume?: ResumeFrom;
  /** Pause before each tool call: the run emits tool-approval and waits for this decision. */
  beforeTool?: (call: { functionId: string; name: string; arguments: string }) => Promise<ToolDecision>;
}

/** Where a resumed run picks up: the messages as they were at the start of iteration `replay.fromIteration`,
 *  and the earlier iterations' events, which the new run re-emits so its log tells the whole story. */
export interface ResumeFrom {
  messages: Message[];
  events: AgentEvent[];
  replay: ReplayInfo;
}

/** What the model is given for a call the user skipped. */
export const SKIPPED_BY_USER = 'The user skipped this tool call; it was not run.';

export class Agent {
  /**
   * The kind reported in run-start events (the page and the message fold tell ReAct runs by it). Spelled out because
   * production builds minify class names; a subclass inherits its parent's kind unless it declares its own.
   */
  static readonly agentType: string = 'Agent';
  readonly name: string;
  readonly description: string;
  readonly systemMessage: string;
  readonly llm: ChatModel;
  readonly files: readonly string[];
  readonly maxLlmCalls: number;
  /** Tools by name; a later tool with the same name replaces an earlier one (as upstream). */
  readonly functionMap = new Map<string, BaseTool>();
  /** functionList entries {mcpServers: ...}: their servers are connected and their tools added before a run. */
  private readonly pendingTools: { mcpServers: Record<string, unknown> }[] = [];

  constructor(opts: AgentOptions = {}) {
    const config = loadConfig();
    this.name = opts.name ?? agentTypeOf(this);
    this.description = opts.description ?? '';
    this.systemMessage = opts.systemMessage ?? '';
    this.files = opts.files ?? [];
    this.maxLlmCalls = opts.maxLlmCalls ?? config.maxLlmCallsPerRun;
    this.llm = isChatModel(opts.llm)
      ? opts.llm
      : new OpenAIChatModel({
          model: opts.llm?.model ?? config.llm.model,
          baseURL: opts.llm?.baseURL ?? config.llm.baseURL,
          apiKey: opts.llm?.apiKey ?? config.llm.apiKey,
          fncallMode: opts.llm?.fncallMode ?? config.llm.fncallMode,
          generateCfg: opts.llm?.generateCfg,
          defaults: {
            maxRetries: config.llm.maxRetries,
            requestTimeoutMs: config.llm.requestTimeoutMs,
            idleTimeoutMs: config.llm.idleTimeoutMs,
            maxInputTokens: config.llm.maxInputTokens,
          },
        });
    for (const spec of opts.functionList ?? []) {
      if (typeof spec === 'object' && spec !== null && 'mcpServers' in spec) {
        parseMcpConfig(spec); // a bad config fails here, with the reason; connecting waits for the first run
        this.pendingTools.push(spec as { mcpServers: Record<string, unknown> });
        continue;
      }
      const tool =
        spec instanceof BaseTool ? spec : createTool(spec as string | ({ name: string } & Record<string, unknown>));
      checkTool(tool); // class fields exist only now, after construction
      this.functionMap.set(tool.name, tool);
    }
  }

  /** Connects the MCP servers given in functionList and adds their tools (run() does this itself). */
  async ready(): Promise<void> {
    while (this.pendingTools.length) {
      const { mcpManager } = await import('../mcp/manager');
      const tools = await mcpManager().toolsFor(this.pendingTools[0]);
      for (const tool of tools) this.functionMap.set(tool.name, tool);
      this.pendingTools.shift();
    }
  }

  get functions(): FunctionDef[] {
    return [...this.functionMap.values()].map((t) => t.function);
  }

  /**
   * The source of truth: every step of the run as typed, JSON-serialisable events, ending with run-end.
   * The loop pushes events into a queue and never waits for the reader; leaving the iteration early (break, return,
   * a closed page) aborts the run.
   */
  runEvents(messages: readonly unknown[], opts: RunOptions = {}): AsyncGenerator<AgentEvent> {
    return this.events(messages, opts, {});
  }

  /** Qwen-Agent's contract: cumulative snapshots of the new messages (never the input). Rejects on a run error. */
  async *run(messages: readonly unknown[], opts: RunOptions = {}): AsyncGenerator<Message[]> {
    const fold = new MessageFold();
    const failure: { error?: unknown } = {};
    for await (const event of this.events(messages, opts, failure)) {
      if (fold.apply(event)) yield fold.snapshot();
      if (event.type === 'run-end') {
        if (failure.error) throw failure.error;
        yield fold.snapshot(); // upstream's final yield repeats the complete response
      }
    }
  }

  /** The last snapshot of run(). */
  async runNonStream(messages: readonly unknown[], opts: RunOptions = {}): Promise<Message[]> {
    let last: Message[] | undefined;
    for await (const snapshot of this.run(messages, opts)) last = snapshot;
    return last ?? [];
  }

  private async *events(
    input: readonly unknown[],
    opts: RunOptions,
    failure: { error?: unknown },
  ): AsyncGenerator<AgentEvent> {
    const queue: AgentEvent[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    const stop = runAbortController(this.maxLlmCalls);
    const onAbort = () => stop.abort();
    if (opts.signal?.aborted) stop.abort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
    const run = new RunState(opts.runId ?? randomUUID(), (e) => {
      queue.push(e);
      if (wake) {
        wake();
        wake = undefined;
      }
    });
    const driving = this.drive(input, { ...opts, signal: stop.signal }, run, failure).finally(() => {
      finished = true;
      wake?.();
    });
    try {
      for (;;) {
        for (let i = 0; i < queue.length; i++) yield queue[i]!;
        queue.length = 0;
        if (finished) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      if (!finished) stop.abort(); // the reader left before the end
      await driving;
    }
  }

  /** Runs the whole run, emitting every event; never throws (a failure becomes run-end with reason error). */
  private async drive(
    input: readonly unknown[],
    opts: RunOptions & { signal: AbortSignal },
    run: RunState,
    failure: { error?: unknown },
  ): Promise<void> {
    let notReady: unknown;
    // Only an agent given {mcpServers} has anything to wait for; the others start at once.
    if (this.pendingTools.length) await untilAborted(this.ready(), opts.signal).catch((e: unknown) => (notReady = e));
    const runStart = (lang: Lang, input: Message[], withSettings = true): Unstamped<'run-start'> => {
      // A literal, not a spread of shared fields: this runs once per run, and spreads cost more than the rest of it.
      const event: Unstamped<'run-start'> = {
        type: 'run-start',
        agent: this.name,
        agentType: agentTypeOf(this),
        model: this.llm.model,
        maxLlmCalls: this.maxLlmCalls,
        tools: [...this.functionMap.keys()],
        lang,
        input,
      };
      if (withSettings && this.functionMap.size) event.fncallMode = this.llm.fncallMode;
      if (withSettings && opts.resume) event.replay = opts.resume.replay;
      return event;
    };
    let messages: Message[];
    let lang: Lang;
    try {
      if (notReady) throw notReady;
      messages = toMessages(input); // fresh copies: the caller's messages are never touched
      lang = opts.lang ?? detectLang(messages);
      // A resumed run's input is the original run's, which already holds its system message.
      if (!opts.resume) messages = this.withSystemMessage(messages);
    } catch (e) {
      run.emit(runStart('en', [], false));
      if (opts.signal.aborted) return void run.end('aborted');
      failure.error = e;
      run.end('error', errorInfo(e as Error));
      return;
    }
    // `input` is a copy: the loop appends to `messages`, and the event must keep saying what the run was given.
    run.emit(runStart(lang, messages.slice()));
    let reason: StopReason;
    let error: ErrorInfo | undefined;
    try {
      if (opts.resume) messages = run.replayPrefix(opts.resume);
      // `opts` is this run's own copy (made in events()): it takes the language instead of being copied again.
      reason = await this.loop(messages, Object.assign(opts, { lang }), run);
    } catch (e) {
      if (isAbortError(e) || opts.signal.aborted) {
        reason = 'aborted';
      } else {
        reason = 'error';
        error = errorInfo(e instanceof Error ? e : new Error(String(e)));
        failure.error = e;
      }
    }
    run.end(reason, error);
  }

  /** The agent's own loop. Receives a private copy of the messages; returns why it stopped. */
  protected async loop(messages: Message[], opts: RunOptions & { lang: Lang }, run: RunState): Promise<StopReason> {
    // The basic agent: one model call, no tools.
    run.iteration = 1;
    await this.callLlm(messages, [], opts, run);
    return 'answered';
  }

  /** One model call, reported as llm-start, llm-retry, deltas and llm-end; returns the parsed output. */
  protected async callLlm(
    messages: Message[],
    functions: FunctionDef[],
    opts: RunOptions & { lang: Lang },
    run: RunState,
    extra: { cfg?: GenerateCfg; format?: 'react' } = {},
  ): Promise<LlmCallResult> {
    const cfg =
      extra.cfg || opts.generateCfg
        ? { ...opts.generateCfg, ...extra.cfg, stop: [...(opts.generateCfg?.stop ?? []), ...(extra.cfg?.stop ?? [])] }
        : undefined;
    run.llmCalls++;
    const r = await this.llm.chat({ messages, functions, signal: opts.signal, lang: opts.lang, cfg }, (e) => {
      if (e.type === 'text') run.emit({ type: 'text-delta', text: e.text });
      else if (e.type === 'reasoning') run.emit({ type: 'reasoning-delta', text: e.text });
      else if (e.type === 'request') {
        const start: LlmStart = { type: 'llm-start', format: extra.format ?? e.format, request: e.request };
        if (e.truncation) start.truncation = e.truncation;
        run.emit(start);
      } else run.emit({ type: 'llm-retry', attempt: e.attempt, delayMs: e.delayMs, error: e.error });
    });
    if (r.usage) run.addUsage(r.usage);
    const end: Unstamped<'llm-end'> = { type: 'llm-end', finishReason: r.finishReason, durationMs: r.durationMs };
    if (r.usage) end.usage = r.usage;
    if (r.ttftMs !== undefined) end.ttftMs = r.ttftMs;
    if (r.raw) end.raw = r.raw;
    if (r.parseErrors.length) end.parseErrors = r.parseErrors;
    run.emit(end);
    return r;
  }

  /** Runs one tool call and reports it. Unknown tools and tool failures become text for the model; a
   *  ToolServiceError is fatal and ends the run. */
  protected async callTool(
    call: { functionId: string; name: string; arguments: string },
    messages: Message[],
    opts: RunOptions & { lang: Lang },
    run: RunState,
  ): Promise<EventOf<'tool-result'>> {
    let decision: ToolDecision | undefined;
    if (opts.beforeTool) {
      run.emit({ type: 'tool-approval', ...call });
      decision = await untilAborted(opts.beforeTool(call), opts.signal);
      if (decision.action === 'run' && decision.arguments !== undefined) {
        call = { ...call, arguments: decision.arguments };
        setCallArguments(messages, call.functionId, call.arguments);
      }
    }
    const started = performance.now();
    const tool = this.functionMap.get(call.name);
    run.toolCalls++;
    const report = (
      ok: boolean,
      content: ToolRunResult['content'],
      error?: EventOf<'tool-result'>['error'],
      files?: EventOf<'tool-result'>['files'],
    ) => {
      const event: Unstamped<'tool-result'> = {
        type: 'tool-result',
        functionId: call.functionId,
        name: call.name,
        ok,
        content,
        durationMs: performance.now() - started,
      };
      if (error) event.error = error;
      if (files?.length) event.files = files;
      if (decision) event.decision = decision;
      return run.emit(event);
    };
    if (decision?.action === 'skip') return report(true, SKIPPED_BY_USER);
    if (decision?.action === 'supply') return report(true, decision.content);
    if (!tool) {
      const content = unknownToolResult(call.name);
      return report(false, content, { kind: 'unknown-tool', message: content, type: 'UnknownTool' });
    }
    const ctx: ToolContext = {
      signal: opts.signal,
      files: tool.fileAccess ? [...new Set([...collectFileRefs(messages), ...this.files])] : [],
      workDir: opts.workDir,
      conversationId: opts.conversationId,
      lang: opts.lang,
      messages,
      emit: (e) => run.emit({ ...e, by: 'tool', functionId: call.functionId }),
    };
    try {
      const r = await runTool(tool, call.arguments, ctx);
      return r.ok ? report(true, r.content, undefined, r.files) : report(false, r.content, r.error);
    } catch (e) {
      if (e instanceof ToolServiceError) report(false, e.message, { kind: 'fatal', message: e.message, type: e.name });
      throw e;
    }
  }

  private withSystemMessage(messages: Message[]): Message[] {
    if (!this.systemMessage) return messages;
    const first = messages[0];
    if (first?.role !== 'system') return [{ role: 'system', content: this.systemMessage }, ...messages];
    const content =
      typeof first.content === 'string'
        ? `${this.systemMessage}\n\n${first.content}`
        : [{ text: `${this.systemMessage}\n\n` }, ...first.content];
    return [{ ...first, content }, ...messages.slice(1)];
  }
}

/** Per-run bookkeeping: ids, the clock, counters. */
export class RunState {
  iteration = 0;
  llmCalls = 0;
  toolCalls = 0;
  private started = performance.now();
  private readonly usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

  constructor(
    readonly runId: string,
    private readonly sink: (event: AgentEvent) => void = () => {},
  ) {}

  /** Stamps a complete event (run id, iteration, clock) and hands it to the reader. */
  emit<T extends AgentEventType>(
    partial: DistributiveOmit<EventOf<T>, 'runId' | 'iteration' | 't'> & { type: T },
    at?: number,
  ): EventOf<T> {
    // Stamped in place: events are made fresh by the caller, and copying each one costs more than the loop itself.
    const event = partial as unknown as { runId: string; iteration: number; t: number };
    event.runId = this.runId;
    event.iteration = this.iteration;
    event.t = at ?? this.elapsed();
    this.sink(event as unknown as AgentEvent);
    return event as unknown as EventOf<T>;
  }

  end(reason: StopReason, error?: ErrorInfo): EventOf<'run-end'> {
    return this.emit({
      type: 'run-end',
      reason,
      ...(error ? { error } : {}),
      llmCalls: this.llmCalls,
      toolCalls: this.toolCalls,
      usage: { ...this.usage },
      durationMs: this.elapsed(),
    });
  }

  /** Re-emits a stored run's earlier iterations (a replay) with their counters; returns the messages to go on
   *  from. */
  replayPrefix(resume: ResumeFrom): Message[] {
    for (const e of resume.events) {
      const { runId: _r, t: _t, ...rest } = e;
      this.iteration = e.iteration;
      if (e.type === 'tool-result') this.toolCalls++;
      if (e.type === 'llm-end' && e.usage) this.addUsage(e.usage);
      // The copied iterations keep their own clock; the run's clock then goes on from where they ended.
      const at = Math.max(e.t, this.elapsed());
      this.emit(rest as DistributiveOmit<AgentEvent, 'runId' | 'iteration' | 't'>, at);
      this.started = Math.min(this.started, performance.now() - at);
    }
    this.iteration = resume.replay.fromIteration - 1;
    this.llmCalls = this.iteration;
    return toMessages(resume.messages);
  }

  addUsage(u: Usage): void {
    this.usage.promptTokens += u.promptTokens;
    this.usage.completionTokens += u.completionTokens;
    this.usage.totalTokens += u.totalTokens;
  }

  private elapsed(): number {
    return Math.round((performance.now() - this.started) * 1000) / 1000;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Unstamped<T extends AgentEventType> = Omit<EventOf<T>, 'runId' | 'iteration' | 't'>;
type LlmStart = Unstamped<'llm-start'>;

/** `promise`, unless the run is stopped first: a run waiting for a decision or a connecting MCP server must still
 *  stop at once. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Shows an edited call with the arguments it ran with, in the history the model sees next. */
function setCallArguments(messages: Message[], functionId: string, args: string): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.function_call && m.extra?.function_id === functionId) {
      messages[i] = { ...m, function_call: { ...m.function_call, arguments: args } };
      return;
    }
  }
}

function agentTypeOf(agent: Agent): string {
  // The nearest declared kind: a subclass of ReActChat still runs (and is shown) as ReAct.
  return (agent.constructor as typeof Agent).agentType;
}

function isChatModel(v: unknown): v is ChatModel {
  return typeof v === 'object' && v !== null && typeof (v as ChatModel).chat === 'function';
}
