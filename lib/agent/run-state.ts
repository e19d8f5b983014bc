// One run's bookkeeping: its id, options and clock, the counters its run-end reports, and the one place its events
// are stamped (run id, iteration, time) before they go to the reader.
import type { VectorStore } from '../documents/search/vectors';
import type { ChatRequest, GenerateCfg } from '../llm/model';
import type { FunctionDef, Lang, Message } from '../llm/schema';
import type { StopReason } from '../protocol/enums';
import type {
  AgentEvent,
  ErrorInfo,
  ReplayInfo,
  ToolDecision,
  Unstamped,
  UnstampedEvent,
  Usage,
} from '../protocol/events';

export interface RunOptions {
  signal?: AbortSignal;
  lang?: Lang;
  runId?: string;
  conversationId?: string;
  /** Where file-aware tools stage files (default DATA_DIR/work/<conversationId>/<tool>). */
  workDir?: string;
  /** Which uploaded files (by content hash) the run may read: the app passes its owner's, so a reference to another
   *  user's upload in a message is refused as a missing file. Unset: any upload (the CLI, scripts). */
  uploadAccess?: (hash: string) => Promise<boolean>;
  /** Where the Assistant's vector search keeps chunk vectors (the app passes its database; default: memory). */
  vectorStore?: VectorStore;
  /** Merged over the model's generate cfg for this run. */
  generateCfg?: GenerateCfg;
  /** Go on from a state a stored run reached instead of starting afresh (lib/replay builds it). FnCallAgent loops
   *  only: a ReAct transcript is one message, which this does not rebuild. */
  resume?: ResumeState;
  /** Pause before each tool call: the run emits tool-approval and waits for this decision. `runId`: the run that
   *  asks (a child run passes its parent's beforeTool on, so two children's calls of the same id stay apart). */
  beforeTool?: (call: ToolCall, runId: string | undefined) => Promise<ToolDecision>;
  /** Tools the caller declared (an OpenAI client's own `tools`): offered to the model beside the agent's own (one
   *  of the same name replaces the agent's for this run), never run here. A response that calls one ends the run
   *  with reason `tool-calls` once its other calls ran. FnCallAgent loops only. */
  clientTools?: readonly FunctionDef[];
  /** Which tools the model may call in this run (OpenAI's tool_choice; FnCallAgent loops only): 'none' offers none;
   *  a name offers only that tool and makes the first model call call it; 'required' makes the first model call
   *  call one (the tools API only). Later calls of the run may answer. Default 'auto'. */
  toolChoice?: ToolChoice;
  /** Assistant only: the knowledge to put in the system message instead of searching the files (Qwen-Agent's
   *  `knowledge=` argument): plain text, or the retrieval tool's JSON ([{url, text: [passages]}]). */
  knowledge?: string;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** Where a resumed run picks up: the messages at the start of iteration `iterations + 1`, and what the iterations
 *  before it counted and took, so the run's totals and clock go on from there. */
export interface ResumeState {
  messages: Message[];
  iterations: number;
  toolCalls: number;
  usage: Usage;
  /** The run clock (ms) where the earlier iterations ended. */
  elapsedMs: number;
  /** Told in run-start. */
  replay: ReplayInfo;
}

export interface ToolCall {
  functionId: string;
  name: string;
  arguments: string;
}

export class RunState {
  iteration = 0;
  llmCalls = 0;
  toolCalls = 0;
  /** Why the latest model call of the run (its own or a child's) stopped. */
  lastFinishReason?: string;
  /** The language of the run's prompts, once the input is read. */
  lang: Lang = 'en';
  private started = performance.now();
  private readonly usage: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

  constructor(
    readonly runId: string,
    /** Aborts when the caller's signal does, when the reader leaves early, or when the run is stopped. */
    readonly signal: AbortSignal,
    /** The caller's options, read only. */
    readonly options: RunOptions,
    private readonly sink: (event: AgentEvent) => void,
  ) {}

  /** Milliseconds since the run started (monotonic, to the microsecond). */
  clock(): number {
    return Math.round((performance.now() - this.started) * 1000) / 1000;
  }

  /** Stamps an event with the run id, the current iteration and the clock, and hands it to the reader. The event
   *  is stamped in place (pass a fresh object each time): a copy per event was the largest part of what the loop
   *  adds to a raw SDK loop (bench/loop-overhead.ts). */
  emit(event: UnstampedEvent): AgentEvent {
    const stamped = event as AgentEvent;
    stamped.runId = this.runId;
    stamped.iteration = this.iteration;
    stamped.t = this.clock();
    this.sink(stamped);
    return stamped;
  }

  end(reason: StopReason, error?: ErrorInfo): void {
    const event: Unstamped<'run-end'> = {
      type: 'run-end',
      reason,
      llmCalls: this.llmCalls,
      toolCalls: this.toolCalls,
      usage: { ...this.usage },
      durationMs: this.clock(),
    };
    if (error) event.error = error;
    if (this.lastFinishReason) event.finishReason = this.lastFinishReason;
    this.emit(event);
  }

  /** A model call's request for this run: its signal and language, and the run's generate cfg under `cfg`. */
  request(messages: Message[], functions: ChatRequest['functions'], cfg?: GenerateCfg): ChatRequest {
    const own = this.options.generateCfg;
    const merged = cfg && own ? { ...own, ...cfg, stop: [...(own.stop ?? []), ...(cfg.stop ?? [])] } : (cfg ?? own);
    return { messages, functions, signal: this.signal, lang: this.lang, cfg: merged };
  }

  /** Adds a child run's totals (a Router's helper, a GroupChat's member) to this run's. */
  addChild(end: Pick<Unstamped<'run-end'>, 'llmCalls' | 'toolCalls' | 'usage' | 'finishReason'>): void {
    if (end.finishReason) this.lastFinishReason = end.finishReason;
    this.llmCalls += end.llmCalls;
    this.toolCalls += end.toolCalls;
    this.addUsage(end.usage);
  }

  addUsage(u: Usage): void {
    this.usage.promptTokens += u.promptTokens;
    this.usage.completionTokens += u.completionTokens;
    this.usage.totalTokens += u.totalTokens;
  }

  /** Goes on from where a stored run's earlier iterations ended: their counts, and the clock past their events. */
  resume(state: ResumeState): void {
    this.iteration = state.iterations;
    this.llmCalls = state.iterations;
    this.toolCalls = state.toolCalls;
    this.addUsage(state.usage);
    this.started = Math.min(this.started, performance.now() - state.elapsedMs);
  }
}
