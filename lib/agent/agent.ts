// Agent: the run wrapper every agent shares (Qwen-Agent's Agent.run), built on one event stream. The loop itself is
// each subclass's; a tool call runs in tool-call.ts, the bookkeeping and stamping of events is run-state.ts.
import { randomUUID } from 'node:crypto';
import { defaultToolSettings, type BaseTool, type ToolSettings } from '../../tools';
import { maxLlmCallsFrom } from '../config';
import { attachmentName, linkTarget } from '../llm/attachment-name';
import { DeferredChatModel } from '../llm/deferred-model';
import { runErrorInfo } from '../llm/errors';
import type { ChatModel, GenerateCfg, LlmCallResult, LlmStreamEvent } from '../llm/model';
import { isQwenLlmConfig, qwenModelConfig, type QwenLlmConfig } from '../llm/qwen-config';
import { isAbortError } from '../llm/retry';
import { runAbortController } from '../llm/run-signal';
import { detectLang, toMessages, type FunctionDef, type Message } from '../llm/schema';
import { AGENT_KIND_NAMES, type AgentKind, type CallFormat, type StopReason } from '../protocol/enums';
import type { AgentEvent, Unstamped } from '../protocol/events';
import { EventQueue } from './event-queue';
import { MessageFold } from './fold';
import { mcpTools, resolveFunctionList, type McpEntry, type ToolSpec } from './function-list';
import { RunEvents } from './run-events';
import { runFileNames } from './run-files';
import { RunState, type RunOptions, type ToolCall } from './run-state';
import { executeToolCall, untilAborted } from './tool-call';

export interface AgentOptions {
  /** The model (lib/llm: `createChatModel(config)`, or any ChatModel), or Qwen-Agent's llm config dict
   *  (`{model, model_server, api_key, generate_cfg}`: lib/llm/qwen-config.ts), made into one as upstream does. */
  llm: ChatModel | QwenLlmConfig;
  functionList?: readonly ToolSpec[];
  systemMessage?: string;
  name?: string;
  description?: string;
  /** A saved agent's id and avatar (an emoji, or an image URL), told in run-start so the page can show who ran. */
  agentId?: string;
  avatar?: string;
  /** Files every run can use (Qwen-Agent's system files), besides those referenced in the messages. */
  files?: readonly string[];
  /** A sentence told after the system message naming `files`, given them as links by the name each goes by in the
   *  run ("[file](<notes (2).txt>)" when an upload of the conversation took "notes.txt": run-files.ts runFileNames),
   *  the names the document tools find them by. This port's own: upstream tells the model nothing of its files. */
  filesNote?: (links: string) => string;
  /** Model calls per run. Unset, the environment says, as upstream's settings.py reads it for an agent made in
   *  code: MAX_LLM_CALL_PER_RUN, else QWEN_AGENT_MAX_LLM_CALL_PER_RUN, else 20 (the app passes its configured
   *  limit, read once at its root). */
  maxLlmCalls?: number;
  /** What the agent's tools, and its own document search, take from the configuration: where files are kept
   *  (DATA_DIR), the code sandbox, web search, the fetch policy, the search budget (tools/settings.ts). The app's
   *  root passes `toolSettings(config)`; unset, the environment's, read once (`defaultToolSettings()`). */
  toolSettings?: ToolSettings;
}

/** Qwen-Agent's keyword arguments that this port spells differently: refused with the name to use, never ignored. */
const UPSTREAM_NAMES: Record<string, string> = {
  function_list: 'functionList',
  system_message: 'systemMessage',
  rag_cfg: 'ragCfg',
  agent_selection_method: 'selection',
};

/** Refuses an option given by its Qwen-Agent name (a port of Python code, or plain JavaScript). */
export function checkOptionNames(opts: object): void {
  for (const [upstream, ours] of Object.entries(UPSTREAM_NAMES))
    if (upstream in opts)
      throw new TypeError(`Agent option "${upstream}" is Qwen-Agent's name: this port calls it "${ours}".`);
}

/** Qwen-Agent's run keyword arguments, which this port takes elsewhere: refused saying where, never ignored. */
const UPSTREAM_RUN_ARGS = Object.entries({
  seed: 'generateCfg: { seed }',
  max_round: "the GroupChat's maxRound option",
  need_batch_response: "the GroupChat's maxRound option (1: one member answers)",
  mentioned_agents_name: 'an @name mention in the last message (the GroupChat answers mentions in order)',
  full_article: "the ArticleAgent's fullArticle option",
  capture_later: "ExpandWriting's captureLater option",
});

/** Refuses a run option given as one of Qwen-Agent's run arguments. */
function checkRunOptionNames(opts: object): void {
  for (const [upstream, ours] of UPSTREAM_RUN_ARGS)
    if (upstream in opts)
      throw new TypeError(`Run option "${upstream}" is Qwen-Agent's run argument: here it is ${ours}.`);
}

/** The model an agent is given: a ChatModel as is, Qwen-Agent's config dict made into one (refused configs throw). */
function isMcpEntry(item: BaseTool | McpEntry): item is McpEntry {
  return 'mcpServers' in item;
}

function chatModelOf(llm: AgentOptions['llm']): ChatModel {
  if (!isQwenLlmConfig(llm)) return llm;
  return new DeferredChatModel(qwenModelConfig(llm));
}

/** Where a model call's answer text goes instead of plain text-delta events (ReActChat tags its transcript; the
 *  Router holds back its `Call:`). */
export interface TextSink {
  push(text: string): void;
  /** The call is over: hand on whatever was held back. */
  end(): void;
  /** The call's whole text, when the sink did not pass all of it on as text-delta events (the inspector then shows
   *  it as the raw response). */
  withheld?(): string | undefined;
}

/** How one model call is made: extra generate cfg (stop words), its format as reported, where its text goes. */
export interface CallExtras {
  cfg?: GenerateCfg;
  format?: CallFormat;
  text?: TextSink;
}

export class Agent {
  /**
   * The kind reported in run-start events (the page and the message fold tell ReAct runs by it). Spelled out because
   * production builds minify class names; a subclass inherits its parent's kind unless it declares its own.
   */
  static readonly kind: AgentKind = 'agent';
  readonly name: string;
  readonly description: string;
  readonly agentId?: string;
  readonly avatar?: string;
  readonly systemMessage: string;
  readonly llm: ChatModel;
  readonly files: readonly string[];
  private readonly filesNote?: (links: string) => string;
  readonly maxLlmCalls: number;
  readonly toolSettings: ToolSettings;
  /** Tools by name; a later tool with the same name replaces an earlier one (as upstream). */
  readonly functionMap: Map<string, BaseTool>;
  /** functionList entries {mcpServers: ...}: their servers are connected and their tools added before a run. */
  private readonly pendingTools: McpEntry[];
  /** The function list in its order, for placing the entries' tools where the entries stand. */
  private readonly listed: (BaseTool | McpEntry)[];

  constructor(opts: AgentOptions) {
    checkOptionNames(opts);
    this.name = opts.name ?? AGENT_KIND_NAMES[kindOf(this)];
    this.description = opts.description ?? '';
    if (opts.agentId) this.agentId = opts.agentId;
    if (opts.avatar) this.avatar = opts.avatar;
    this.systemMessage = opts.systemMessage ?? '';
    this.files = opts.files ?? [];
    if (opts.filesNote) this.filesNote = opts.filesNote;
    this.maxLlmCalls = opts.maxLlmCalls ?? maxLlmCallsFrom();
    this.toolSettings = opts.toolSettings ?? defaultToolSettings();
    this.llm = chatModelOf(opts.llm);
    const { tools, mcp, entries } = resolveFunctionList(opts.functionList ?? [], this.toolSettings);
    this.functionMap = tools;
    this.pendingTools = mcp;
    this.listed = entries;
  }

  /** Connects functionList's MCP servers, adds their tools and lets each tool prepare (run() does this itself). */
  async ready(): Promise<void> {
    if (this.pendingTools.length) {
      const connected = new Map<McpEntry, BaseTool[]>();
      while (this.pendingTools.length) {
        connected.set(this.pendingTools[0]!, await mcpTools(this.pendingTools[0]!, this.toolSettings));
        this.pendingTools.shift();
      }
      // In the list's order, as upstream fills its function_map: a later tool of a name replaces an earlier one in
      // the earlier one's place.
      const ordered = new Map<string, BaseTool>();
      for (const item of this.listed)
        for (const tool of isMcpEntry(item) ? (connected.get(item) ?? []) : [item]) ordered.set(tool.name, tool);
      for (const [name, tool] of this.functionMap) if (!ordered.has(name)) ordered.set(name, tool);
      this.functionMap.clear();
      for (const [name, tool] of ordered) this.functionMap.set(name, tool);
    }
    await Promise.all([...this.functionMap.values()].map((tool) => tool.prepare?.(this.toolSettings)));
  }

  private get waitsBeforeRunning(): boolean {
    if (this.pendingTools.length > 0) return true;
    for (const tool of this.functionMap.values()) if (tool.prepare) return true;
    return false;
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
        // A stop leaves the calls after the stopped one without a result, which the next request's model refuses.
        fold.finish(event.reason);
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

  private events(
    input: readonly unknown[],
    opts: RunOptions,
    failure: { error?: unknown },
  ): AsyncGenerator<AgentEvent> {
    checkRunOptionNames(opts);
    return new RunEvents<AgentEvent>(() => {
      const queue = new EventQueue<AgentEvent>();
      const stop = runAbortController(this.maxLlmCalls);
      const onAbort = () => stop.abort();
      if (opts.signal?.aborted) stop.abort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
      const run = new RunState(opts.runId ?? randomUUID(), stop.signal, opts, (e) => queue.push(e));
      const driving = this.drive(input, run, failure).finally(() => queue.close());
      return {
        queue,
        stop: () => stop.abort(),
        finished: () => {
          opts.signal?.removeEventListener('abort', onAbort);
          return driving;
        },
      };
    });
  }

  /** Runs the whole run, emitting every event; never throws (a failure becomes run-end with reason error). */
  private async drive(input: readonly unknown[], run: RunState, failure: { error?: unknown }): Promise<void> {
    const resume = run.options.resume;
    let notReady: unknown;
    // Only an agent given {mcpServers}, or a tool that prepares, has anything to wait for; the others start at once.
    if (this.waitsBeforeRunning) await untilAborted(this.ready(), run.signal).catch((e: unknown) => (notReady = e));
    let messages: Message[];
    try {
      if (notReady) throw notReady;
      messages = toMessages(input); // fresh copies: the caller's messages are never touched
      run.lang = run.options.lang ?? detectLang(messages);
      // A resumed run's input is the original run's, which already holds its system message.
      if (!resume) messages = this.withSystemMessage(messages);
    } catch (e) {
      run.emit(this.runStart(run, [], false));
      if (run.signal.aborted) return run.end('aborted');
      failure.error = e;
      return run.end('error', runErrorInfo(e));
    }
    // `input` is a copy: the loop appends to `messages`, and the event must keep saying what the run was given.
    run.emit(this.runStart(run, messages.slice(), true));
    let reason: StopReason;
    try {
      if (resume) {
        run.resume(resume);
        messages = toMessages(resume.messages);
      }
      reason = await this.loop(messages, run);
    } catch (e) {
      if (isAbortError(e) || run.signal.aborted) return run.end('aborted');
      failure.error = e;
      return run.end('error', runErrorInfo(e));
    }
    run.end(reason);
  }

  private runStart(run: RunState, input: Message[], withSettings: boolean): Unstamped<'run-start'> {
    const event: Unstamped<'run-start'> = {
      type: 'run-start',
      agent: this.name,
      kind: kindOf(this),
      model: this.llm.model,
      maxLlmCalls: this.maxLlmCalls,
      tools: [...this.functionMap.keys()],
      lang: run.lang,
      input,
    };
    if (this.llm.connection) event.connection = this.llm.connection;
    if (this.llm.pricing) event.pricing = this.llm.pricing;
    if (this.llm.contextLength) event.contextLength = this.llm.contextLength;
    if (this.agentId) event.agentId = this.agentId;
    if (this.avatar) event.avatar = this.avatar;
    if (withSettings && this.functionMap.size) event.fncallMode = this.llm.fncallMode;
    if (withSettings && run.options.resume) event.replay = run.options.resume.replay;
    return event;
  }

  /** The agent's own loop. Receives a private copy of the messages; returns why it stopped. */
  protected async loop(messages: Message[], run: RunState): Promise<StopReason> {
    // The basic agent: one model call, no tools.
    run.iteration = 1;
    await this.callLlm(messages, [], run);
    return 'answered';
  }

  /** One model call, reported as llm-start, llm-retry, deltas and llm-end; returns the parsed output. */
  protected async callLlm(
    messages: Message[],
    functions: FunctionDef[],
    run: RunState,
    extra: CallExtras = {},
  ): Promise<LlmCallResult> {
    run.llmCalls++;
    const text = extra.text;
    const onEvent = (e: LlmStreamEvent) => {
      if (e.type === 'text') {
        if (text) text.push(e.text);
        else run.emit({ type: 'text-delta', text: e.text });
      } else if (e.type === 'reasoning') run.emit({ type: 'reasoning-delta', text: e.text });
      else if (e.type === 'request') {
        const start: Unstamped<'llm-start'> = {
          type: 'llm-start',
          format: extra.format ?? e.format,
          request: e.request,
        };
        if (e.truncation) start.truncation = e.truncation;
        if (e.imagesWithheld) start.imagesWithheld = e.imagesWithheld;
        if (e.toolImagesWithheld) start.toolImagesWithheld = e.toolImagesWithheld;
        run.emit(start);
      } else run.emit({ type: 'llm-retry', attempt: e.attempt, delayMs: e.delayMs, error: e.error });
    };
    let r: LlmCallResult;
    try {
      r = await this.llm.chat(run.request(messages, functions, extra.cfg), onEvent);
    } finally {
      text?.end(); // what the sink held back belongs to this call
    }
    if (r.usage) run.addUsage(r.usage);
    run.lastFinishReason = r.finishReason;
    const end: Unstamped<'llm-end'> = { type: 'llm-end', finishReason: r.finishReason, durationMs: r.durationMs };
    if (r.usage) end.usage = r.usage;
    if (r.ttftMs !== undefined) end.ttftMs = r.ttftMs;
    if (r.raw) end.raw = r.raw;
    else {
      const withheld = text?.withheld?.();
      if (withheld !== undefined) end.raw = { content: withheld };
    }
    if (r.parseErrors.length) end.parseErrors = r.parseErrors;
    if (r.rawStream) end.rawStream = r.rawStream;
    run.emit(end);
    return r;
  }

  /** Runs one tool call (see tool-call.ts) with `tools` (default: all the agent's); returns what the model gets back. */
  protected callTool(
    call: ToolCall,
    messages: Message[],
    run: RunState,
    tools: ReadonlyMap<string, BaseTool> = this.functionMap,
  ) {
    return executeToolCall(call, tools, messages, run, this);
  }

  private withSystemMessage(messages: Message[]): Message[] {
    const system = [this.systemMessage, this.filesNoteFor(messages)].filter(Boolean).join('\n\n');
    if (!system) return messages;
    const first = messages[0];
    if (first?.role !== 'system') return [{ role: 'system', content: system }, ...messages];
    const content =
      typeof first.content === 'string'
        ? `${system}\n\n${first.content}`
        : [{ text: `${system}\n\n` }, ...first.content];
    return [{ ...first, content }, ...messages.slice(1)];
  }

  /** The files note for a run of `messages`: each file by the name the run stages it under. */
  private filesNoteFor(messages: readonly Message[]): string {
    if (!this.filesNote || !this.files.length) return '';
    const names = runFileNames(this.files, messages);
    return this.filesNote(this.files.map((f) => `[file](${linkTarget(names.get(f) ?? attachmentName(f))})`).join(' '));
  }
}

function kindOf(agent: Agent): AgentKind {
  // The nearest declared kind: a subclass of ReActChat still runs (and is shown) as ReAct.
  return (agent.constructor as typeof Agent).kind;
}
