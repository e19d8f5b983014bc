// The spine: one typed event union, with its runtime schema, from the agent loop to every consumer
// (run()/runNonStream() folds, the CLI, the SSE route, the page's store, the run log, the inspector).
// Events are plain JSON. Every event carries the run id, the iteration (0 for run-level events, then 1..N for
// each model call) and `t`, milliseconds since the run started on a monotonic clock.
//
// Runs nest: a Router's helper and a GroupChat's members run as child runs of the turn's run. Each event of a child
// reaches the parent wrapped in a `child` event, stamped with the parent's run id, iteration and clock and naming
// the agent; inside it is the child's own event, exactly as the child emitted it (its own run id, iterations and
// clock). Wrapping rather than extra fields on every event keeps each run's events a complete run of their own (any
// fold of a run works on a child's events unchanged), keeps a reader that knows nothing of children correct (it
// sees the parent's own events and skips the wrappers), and leaves a plain run's events exactly as they were.
// Child runs may overlap (ParallelDocQA's readers run side by side): a wrapped event's run id says whose it is.
import { z } from './zod';
import {
  AGENT_KINDS,
  CALL_FORMATS,
  FNCALL_MODES,
  HANDOFF_REASONS,
  REACT_PARTS,
  STOP_REASONS,
  TOOL_ERROR_KINDS,
} from './enums';
import { ContentItemSchema, LANGS, MessageSchema } from './message';

const base = { runId: z.string(), iteration: z.number().int().nonnegative(), t: z.number().nonnegative() };
const Content = z.union([z.string(), z.array(ContentItemSchema)]);

export const UsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** What a model's tokens cost, per million (set on its connection; no currency is assumed). Kept in the run's
 *  run-start, so a later price change does not rewrite what a run cost. */
export const PricingSchema = z.object({
  inputPerMTok: z.number().nonnegative(),
  outputPerMTok: z.number().nonnegative(),
});
export type Pricing = z.infer<typeof PricingSchema>;

export const ErrorInfoSchema = z.object({
  name: z.string(),
  /** In English, for everything that reads it as it is (/v1 callers, logs, the inspector, an English page). */
  message: z.string(),
  status: z.number().optional(),
  code: z.string().optional(),
  /** The model layer judged it may pass (a 429, a 5xx, a server it could not reach): asking again may succeed. */
  retryable: z.literal(true).optional(),
  /** How long the model server asked to be left alone (its Retry-After), when it said. */
  retryAfterMs: z.number().nonnegative().optional(),
  /** What the code's sentence fills in (a status, a number of ms, the server's own words), so that another language
   *  says it without reading the English. */
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** The child run it came from (a ParallelDocQA reader, a Router's helper), by name; `message` starts with it. */
  agent: z.string().optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

/** How a tool call failed (kind), what failed (type: ZeroDivisionError, Timeout…) and one line saying it; with a
 *  shared code (lib/protocol/errors.ts) when the page can say it in its language, the tool's own words in `values`. */
export const ToolErrorInfoSchema = z.object({
  kind: z.enum(TOOL_ERROR_KINDS),
  message: z.string(),
  type: z.string(),
  code: z.string().optional(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ToolErrorInfo = z.infer<typeof ToolErrorInfoSchema>;

/** The exact body sent to the model server for one call (after truncation, templating and knowledge injection). */
export const LlmRequestSchema = z.object({
  model: z.string(),
  messages: z.array(z.record(z.string(), z.unknown())),
  tools: z.array(z.record(z.string(), z.unknown())).optional(),
  stop: z.array(z.string()).optional(),
  params: z.record(z.string(), z.unknown()),
});
export type LlmRequest = z.infer<typeof LlmRequestSchema>;

/** A file a tool produced or used (code_interpreter output, an MCP image), served to the page by `url`. */
export const ToolFileSchema = z.object({
  name: z.string(),
  url: z.string(),
  mime: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type ToolFile = z.infer<typeof ToolFileSchema>;

/** One chunk a retrieval step considered: where it came from, how it scored, and whether it went into the prompt. */
export const RetrievalCandidateSchema = z.object({
  chunkId: z.string(),
  fileId: z.string(),
  fileName: z.string(),
  page: z.number().int().optional(),
  /** The last page the passage's text reaches, when it runs past `page` (a passage spanning pages 1 to 6). */
  lastPage: z.number().int().optional(),
  score: z.number(),
  tokens: z.number().int().nonnegative(),
  text: z.string(),
  used: z.boolean(),
  /** Put first by Qwen's front-page search (the opening chunks of a single document). */
  pinned: z.boolean().optional(),
});
export type RetrievalCandidate = z.infer<typeof RetrievalCandidateSchema>;

/** The provider's SSE chunks of one model call as received (recording on): each `data:` payload and when it came,
 *  in ms since the request was sent; bounded per call (lib/llm/raw-stream.ts), `dropped` counts what did not fit. */
export const RawStreamSchema = z.object({
  chunks: z.array(z.object({ t: z.number().nonnegative(), data: z.string() })),
  dropped: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});
export type RawStream = z.infer<typeof RawStreamSchema>;

export const RawToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

/** A run started as a replay of another run from one of its iterations (lib/replay). Iterations before
 *  `fromIteration` are copied from the original run (with `toolResultEdits` applied); the rest ran anew. */
export const ReplayInfoSchema = z.object({
  of: z.string(),
  /** The original run's number among its message's runs (1: the first answer), as the page numbers them: how the
   *  replay is labelled ("Replay of run 2 from step 3"). Absent in replays recorded before it was kept. */
  ofRun: z.number().int().positive().optional(),
  /** A continuation (Continue, after the model-call limit): every iteration was copied, the run goes on after them. */
  continued: z.literal(true).optional(),
  fromIteration: z.number().int().positive(),
  model: z.string().optional(),
  generateCfg: z.record(z.string(), z.unknown()).optional(),
  toolResultEdits: z
    .array(z.object({ iteration: z.number().int().positive(), functionId: z.string(), content: z.string() }))
    .optional(),
});
export type ReplayInfo = z.infer<typeof ReplayInfoSchema>;

/** What the user decided for a tool call the run paused before ("pause before tools"). */
export const ToolDecisionSchema = z.discriminatedUnion('action', [
  /** Run the tool, with edited arguments when given (the model's call is then shown with them too). */
  z.object({ action: z.literal('run'), arguments: z.string().optional() }),
  /** Do not run it; the model is told the user skipped it. */
  z.object({ action: z.literal('skip') }),
  /** Do not run it; the model gets this text as the result. */
  z.object({ action: z.literal('supply'), content: z.string() }),
]);
export type ToolDecision = z.infer<typeof ToolDecisionSchema>;

/** Who searched: the Assistant before its model call, the retrieval tool, or a VirtualMemoryAgent recalling
 *  earlier turns of the conversation. */
export const RETRIEVERS = ['assistant', 'tool', 'memory'] as const;
export type Retriever = (typeof RETRIEVERS)[number];

/** The first event of every run: who runs on what model, and the run's settings. */
const RunStartSchema = z.object({
  type: z.literal('run-start'),
  ...base,
  /** The agent's name (it names the messages it writes). */
  agent: z.string(),
  /** A saved agent's id (lib/agents), and its avatar: an emoji, or the URL of its image. */
  agentId: z.string().optional(),
  avatar: z.string().optional(),
  /** Which kind of agent ran: how its events are read (a ReAct run's text is one transcript). */
  kind: z.enum(AGENT_KINDS),
  model: z.string(),
  /** The connection the model was reached through (a name the user gave, "Environment", "Local"), when known. */
  connection: z.string().optional(),
  /** The model's prices when the run started (absent: none set). */
  pricing: PricingSchema.optional(),
  /** The model's context length in tokens when the run started (absent: unknown). */
  contextLength: z.number().int().positive().optional(),
  fncallMode: z.enum(FNCALL_MODES).optional(),
  lang: z.enum(LANGS),
  maxLlmCalls: z.number().int().positive(),
  tools: z.array(z.string()),
  /** The messages the run was given (after the agent's system message was added). Left out of the browser feed
   *  (the run log keeps it for the inspector). */
  input: z.array(MessageSchema).optional(),
  replay: ReplayInfoSchema.optional(),
});

/** Every kind of event but the `child` wrapper. */
const OWN_EVENTS = [
  RunStartSchema,
  z.object({
    type: z.literal('llm-start'),
    ...base,
    format: z.enum(CALL_FORMATS),
    /** Left out of the browser feed, where it would resend the whole history on every call; the run log keeps it. */
    request: LlmRequestSchema.optional(),
    /** What input truncation did to fit max_input_tokens (absent when nothing was cut). */
    truncation: z.object({ inputTokens: z.number(), budget: z.number(), notes: z.array(z.string()) }).optional(),
    /** Images of the turn's message (the last user message) the model was not sent because it cannot see images (the
     *  turn says so; those of earlier messages were said on their own turn). */
    imagesWithheld: z.number().int().positive().optional(),
    /** Images the latest step's tools produced that the model was not sent because it cannot see images, when tool
     *  images are on (the turn says so). */
    toolImagesWithheld: z.number().int().positive().optional(),
  }),
  z.object({
    type: z.literal('llm-retry'),
    ...base,
    attempt: z.number().int(),
    delayMs: z.number(),
    error: ErrorInfoSchema,
  }),
  z.object({ type: z.literal('reasoning-delta'), ...base, text: z.string() }),
  z.object({
    type: z.literal('text-delta'),
    ...base,
    text: z.string(),
    /** ReAct runs only: which part of a step this piece of the transcript is. */
    part: z.enum(REACT_PARTS).optional(),
    /** This text begins an assistant message of its own instead of continuing the iteration's text (ArticleAgent's
     *  step headings, each a message of its own as upstream yields them). */
    newMessage: z.literal(true).optional(),
    /** With newMessage: the message is the user's (UserAgent's marker that the user is to speak). */
    role: z.literal('user').optional(),
    /** With newMessage: the message's own name instead of the agent's (GroupChatCreator's `background` and
     *  `role_config` messages, as upstream names them). */
    name: z.string().optional(),
  }),
  z.object({
    type: z.literal('llm-end'),
    ...base,
    finishReason: z.string(),
    usage: UsageSchema.optional(),
    ttftMs: z.number().optional(),
    durationMs: z.number(),
    /**
     * The model's raw output where it differs from what text-delta/reasoning-delta carried (tool-call markup,
     * text cut at a stop word, think tags). Absent when the streamed text is the whole story, so the answer is
     * never sent twice.
     */
    raw: z
      .object({
        content: z.string(),
        reasoning: z.string().optional(),
        toolCalls: z.array(RawToolCallSchema).optional(),
      })
      .optional(),
    parseErrors: z.array(z.string()).optional(),
    /** With raw-stream recording on: the chunks as the server sent them (the run log and export keep them). */
    rawStream: RawStreamSchema.optional(),
  }),
  z.object({
    type: z.literal('tool-call'),
    ...base,
    /** Qwen-Agent's extra.function_id: ties the call to its result. Unique within an iteration. */
    functionId: z.string(),
    name: z.string(),
    arguments: z.string(),
    /** A tool the caller declared (an OpenAI client's own `tools`): not run here; the run ends handing it back. */
    client: z.literal(true).optional(),
  }),
  z.object({
    /** The run stopped before this call and waits for the user's decision (pause before tools). */
    type: z.literal('tool-approval'),
    ...base,
    functionId: z.string(),
    name: z.string(),
    arguments: z.string(),
  }),
  z.object({
    /** The user's decision on a call the run paused before, as it is taken: the call runs (or is skipped, or gets the
     *  user's result) after this. A call decided and left without a result was running, not waiting. */
    type: z.literal('tool-decision'),
    ...base,
    functionId: z.string(),
    name: z.string(),
    decision: ToolDecisionSchema,
  }),
  z.object({
    type: z.literal('tool-result'),
    ...base,
    functionId: z.string(),
    name: z.string(),
    /** The arguments the call ran with: the model's, or the user's edit of them (pause before tools). */
    arguments: z.string(),
    /** False when the call failed (`error` says how): a `failed` call's content is still the tool's own result. */
    ok: z.boolean(),
    /** Exactly what the model is given back (on failure, the readable error text, or a `failed` tool's result). */
    content: Content,
    /** How the call failed (ToolErrorInfoSchema). A call the run was stopped during has one (`stopped`); a call
     *  stopped before it started has no tool-result at all. */
    error: ToolErrorInfoSchema.optional(),
    durationMs: z.number(),
    /** Files the tool wrote or returned (listed on its card; images shown inline). */
    files: z.array(ToolFileSchema).optional(),
  }),
  z.object({
    /** Documents searched for the run (the Assistant before a model call, or the retrieval tool): the query, the
     *  candidates with their scores, and which went into the prompt within the token budget. `memory`: the
     *  VirtualMemoryAgent searched the conversation's own earlier turns, which no longer fit the model's input; each
     *  candidate's `page` is then the turn it comes from (1-based). */
    type: z.literal('retrieval'),
    ...base,
    by: z.enum(RETRIEVERS),
    /** The tool call it belongs to, when the retrieval tool ran it. */
    functionId: z.string().optional(),
    query: z.string(),
    /** The query's search terms (stemmed, stop words removed). */
    terms: z.array(z.string()).optional(),
    /** 'all': everything fitted the budget; 'front': no query, the documents' beginnings; 'ranked': BM25 + front page. */
    mode: z.enum(['all', 'front', 'ranked']).optional(),
    candidates: z.array(RetrievalCandidateSchema),
    budgetTokens: z.number().int().nonnegative(),
    usedTokens: z.number().int().nonnegative(),
    durationMs: z.number(),
    /** Files that could not be read, one sentence each. */
    errors: z.array(z.string()).optional(),
  }),
  z.object({
    type: z.literal('react-step'),
    ...base,
    thought: z.string(),
    action: z.string().optional(),
    actionInput: z.string().optional(),
    observation: z.string().optional(),
    finalAnswer: z.string().optional(),
    /** The model's reply had neither a tool call nor a Final Answer (it skipped the format): the whole reply is the
     *  answer, as upstream yields it, and finalAnswer holds it. Its text streamed as a thought; readers show it as the
     *  answer from this step on. */
    plainReply: z.literal(true).optional(),
  }),
  z.object({
    /** A Router or GroupChat passes the turn on: to the helper or member named `to` (the next events are its child
     *  run), to the user (`user`: the group waits for the user's message), or to nobody (the host said [STOP]). */
    type: z.literal('handoff'),
    ...base,
    /** 1..max_round for a GroupChat; 1 for a Router. */
    round: z.number().int().positive(),
    to: z.string().optional(),
    user: z.literal(true).optional(),
    reason: z.enum(HANDOFF_REASONS),
  }),
  z.object({
    /** A document read chunk by chunk (ParallelDocQA's readers): how many of its chunks have been read. Sent with
     *  `done` 0 when the reading starts, then after each chunk. */
    type: z.literal('progress'),
    ...base,
    /** The document's name. */
    document: z.string(),
    done: z.number().int().nonnegative(),
    total: z.number().int().positive(),
  }),
  z.object({
    type: z.literal('run-end'),
    ...base,
    reason: z.enum(STOP_REASONS),
    error: ErrorInfoSchema.optional(),
    /** Why the run's last model call (its own or a child run's) stopped: the server's finish_reason ("length" when
     *  max_tokens cut the answer). */
    finishReason: z.string().optional(),
    /** Totals of the run, its child runs' included. */
    llmCalls: z.number().int(),
    toolCalls: z.number().int(),
    usage: UsageSchema,
    durationMs: z.number(),
  }),
] as const;

/** An event a run emits itself. */
export type OwnEvent = z.infer<(typeof OWN_EVENTS)[number]>;

/** One event of a child run (a Router's helper, a GroupChat's member), as its parent carries it. */
export interface ChildEvent extends z.infer<z.ZodObject<typeof base>> {
  type: 'child';
  /** The name of the agent the child run is (it names the messages the child writes). */
  agent: string;
  /** The child's own event: its run id, iterations and clock. */
  event: AgentEvent;
  /** The child speaks as the user (a DialogueSimulator's simulated user): its answers are user messages. */
  asUser?: true;
  /** The child is a step whose output its parent reads (ParallelDocQA's readers, a keyword strategy), not an answer:
   *  its messages are not the run's, and the page shows it folded. */
  aside?: true;
}

export type AgentEvent = OwnEvent | ChildEvent;

export const AgentEventSchema: z.ZodType<AgentEvent> = z.discriminatedUnion('type', [
  ...OWN_EVENTS,
  z.object({
    type: z.literal('child'),
    ...base,
    agent: z.string(),
    event: z.lazy(() => AgentEventSchema),
    asUser: z.literal(true).optional(),
    aside: z.literal(true).optional(),
  }),
]);

export type AgentEventType = AgentEvent['type'];
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** Omit on each member of a union (Omit on the union itself keeps only the fields all members share). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What every event carries besides its own fields; the run stamps these on each event it emits. */
export type EventStamp = Pick<AgentEvent, 'runId' | 'iteration' | 't'>;
/** An event as its emitter describes it, before the run stamps it. */
export type UnstampedEvent = DistributiveOmit<AgentEvent, keyof EventStamp>;
/** One type of event, before the run stamps it. */
export type Unstamped<T extends AgentEventType> = Omit<EventOf<T>, keyof EventStamp>;
/** What a run-start says of the run's settings for the inspector only (the run log keeps it; the feed need not). */
export type RunStartSettings = 'input' | 'maxLlmCalls' | 'tools' | 'lang' | 'fncallMode' | 'pricing' | 'contextLength';
/** A run-start as the feed may carry it: who ran on what model, its settings optional. */
export type FeedRunStart = Omit<EventOf<'run-start'>, 'runId' | RunStartSettings> &
  Partial<Pick<EventOf<'run-start'>, RunStartSettings>>;
/** An event as the page and HTTP clients receive it (lib/chat/feed.ts): the run id is said once per stream. */
export type FeedEvent = DistributiveOmit<Exclude<AgentEvent, { type: 'run-start' }>, 'runId'> | FeedRunStart;
/** A retrieval as its searcher describes it; the emitter adds who ran it and stamps it. */
export type RetrievalStep = Omit<EventOf<'retrieval'>, keyof EventStamp | 'by' | 'functionId'>;

export function parseAgentEvent(value: unknown): AgentEvent {
  return AgentEventSchema.parse(value);
}

const FeedRunStartSchema = RunStartSchema.omit({ runId: true }).partial({
  input: true,
  maxLlmCalls: true,
  tools: true,
  lang: true,
  fncallMode: true,
  pricing: true,
  contextLength: true,
});

/** An event of the feed (the page's and POST /api/chat's), checked: the run id is said once per stream, not on each
 *  event, and a run-start may carry only who ran on what model. */
export function parseFeedEvent(value: unknown): FeedEvent {
  if ((value as { type?: unknown } | null)?.type === 'run-start') return FeedRunStartSchema.parse(value);
  const { runId: _runId, ...event } = AgentEventSchema.parse({ ...(value as object), runId: '' });
  return event as FeedEvent;
}
