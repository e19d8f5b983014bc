// The page's view of a run: the event stream folded into blocks in the order they happened: reasoning, tool
// The page's view of a run: the event stream folded into blocks in the order they happened: reasoning, tool
// calls, answer text, and each child run (a Router's helper, a GroupChat's member) as a section holding its own
// view, folded by the same rules. Pure and framework-free: the client store applies it event by event; tests run
// it in Node.
import {
  TOOLS_REFUSED_CODE,
  TRANSCRIPT_KINDS,
  type AgentKind,
  type CallFormat,
  type HandoffReason,
  type ReactPart,
  type TurnStatus,
} from '../protocol/enums';
import type {
  AgentEventType,
  ErrorInfo,
  FeedEvent,
  RetrievalCandidate,
  Retriever,
  ToolErrorInfo,
  ToolFile,
  Usage,
} from '../protocol/events';
import type { ContentItem } from '../protocol/message';
import type { RunOutcome } from '../protocol/enums';
import { endsRun, runningCall, unfinishedCall } from '../protocol/unfinished-calls';

type Feed<T extends AgentEventType> = Extract<FeedEvent, { type: T }>;

/** `stopped`: the run was stopped while the call ran. `interrupted`: the run failed, or its server stopped, while the
 *  call ran; it has no result. A call its run ended before it started is an `error`, not run (unfinished-calls.ts). */
export type ToolStatus = 'queued' | 'awaiting' | 'running' | 'done' | 'error' | 'stopped' | 'interrupted';

export interface ReasoningBlock {
  kind: 'reasoning';
  id: string;
  /** 'thinking' for model reasoning, 'thought' for a ReAct Thought. */
  label: 'thinking' | 'thought';
  text: string;
  /** Run clock (ms) when it started and, once over, when it ended. */
  startT: number;
  endT?: number;
}

export interface ToolBlock {
  kind: 'tool';
  id: string;
  iteration: number;
  functionId: string;
  name: string;
  arguments: string;
  status: ToolStatus;
  /** What the model got back: the result, or on failure the exact error text it was given. */
  result?: string | ContentItem[];
  /** How it failed; for a call its run's end left without a result, kind `interrupted` or `not-run` and which
   *  sentence says so (lib/protocol/unfinished-calls.ts). */
  error?: Omit<ToolErrorInfo, 'kind'> & { kind: string };
  /** A tool the caller declared (the OpenAI-compatible API): handed back, never run here. */
  client?: true;
  durationMs?: number;
  /** Files the tool wrote (code_interpreter), served to the page. */
  files?: ToolFile[];
  /** Set when the run paused before this call: what the user decided (run, skip, supply a result). */
  decision?: Feed<'tool-decision'>['decision'];
  /** The document search the call ran (the retrieval tool): shown on its card, not as a second card. */
  retrieval?: RetrievalBlock;
}

export interface TextBlock {
  kind: 'text';
  id: string;
  text: string;
  /** The model call it came from (a call's text after another call's starts a block of its own, except in one
   *  transcript: ReAct, TIR). */
  iteration?: number;
}

/** A search of the documents: by the Assistant before its model call, or by the retrieval tool; or of the
 *  conversation's earlier turns (`memory`: a VirtualMemoryAgent's recall, each candidate's page a turn). */
export interface RetrievalBlock {
  kind: 'retrieval';
  id: string;
  iteration: number;
  by: Retriever;
  functionId?: string;
  query: string;
  terms?: string[];
  mode?: 'all' | 'front' | 'ranked';
  /** In the order they were considered; `used` ones went into the prompt. */
  candidates: RetrievalCandidate[];
  budgetTokens: number;
  usedTokens: number;
  durationMs: number;
  errors?: string[];
}

/** A child run: who answered (name, avatar, kind), when on the parent's clock, and its own view. */
export interface AgentBlock {
  kind: 'agent';
  id: string;
  /** The child's run id. */
  runId: string;
  name: string;
  avatar?: string;
  agentKind?: AgentKind;
  /** A step whose output the parent read (ParallelDocQA's readers, a keyword strategy), not an answer: shown folded,
   *  and not part of the turn's answer. */
  aside?: true;
  /** How it came to speak: the round of a GroupChat and why it was picked (the handoff before it). */
  round?: number;
  reason?: HandoffReason;
  /** The parent's clock (ms) when it started and, once over, when it ended. */
  startT: number;
  endT?: number;
  /** Its own blocks. A changed child run gets a new object here, with new objects for its changed blocks, so a UI
   *  that memoizes blocks by identity redraws exactly what changed, at every depth. */
  run: RunView;
}

/** The turn passed to the user (a GroupChat waits for the user's message), or ended by the host's [STOP]. */
export interface HandoffBlock {
  kind: 'handoff';
  id: string;
  round: number;
  reason: HandoffReason;
  /** The user's name when it is the user's turn; absent when the host said [STOP]. */
  to?: string;
}

export type Block = ReasoningBlock | ToolBlock | TextBlock | RetrievalBlock | AgentBlock | HandoffBlock;

export interface RunView {
  runId: string;
  /** Which kind of agent ran (known once run-start arrived). */
  kind?: AgentKind;
  /** The model that answered, and the connection it was reached through (from run-start). */
  model?: string;
  connection?: string;
  /** The server refused native tool calls and the tools went in the text (the tools-refused retry). */
  toolsFallback?: boolean;
  /** How the latest model call was made (native tools API, tools in the text, ReAct…). */
  callFormat?: CallFormat;
  /** A saved agent's name and avatar, when one ran (shown on its turn). */
  agent?: { id: string; name: string; avatar?: string };
  /** The run a replay (or a continuation) started from, as its run-start recorded it: the original's number among
   *  its message's runs (absent in older logs) and the step the new run started at; the turn labels it. */
  replay?: { ofRun?: number; fromIteration: number; continued?: boolean };
  status: TurnStatus;
  error?: ErrorInfo;
  blocks: Block[];
  usage?: Usage;
  durationMs?: number;
  llmCalls: number;
  /** Images of the conversation the model was not sent, because it cannot see images (the turn says so). */
  imagesWithheld?: number;
  /** Images the tools produced that the model was not sent, because it cannot see images (tool images on). Each
   *  step's images are counted by the one call after it, so the calls' counts add up. */
  toolImagesWithheld?: number;
  /** Documents being read chunk by chunk (ParallelDocQA): how far each is, in the order they started. */
  progress?: ReadingProgress[];
  /** Set while the model server is being retried: which attempt comes next, after how long, and why (the HTTP status
   *  of the failure, when it had one). */
  retrying?: { attempt: number; delayMs: number; message: string; status?: number };
}

export interface ReadingProgress {
  document: string;
  done: number;
  total: number;
}

export function emptyRun(runId: string): RunView {
  return { runId, status: 'streaming', blocks: [], llmCalls: 0 };
}

/** The id applyEvent returns when the run's own state changed (a retry of the model call shown, then ended), not a
 *  block's: a UI draws the run again. */
export const RUN_CHANGED = 'run';

/**
 * Applies one event to a run view, in place, and returns the ids of the blocks that changed (so a UI can re-render
 * only those), with RUN_CHANGED when the run's own state did. ReAct runs are shown as steps (thought, tool card,
 * answer): their text-delta events say which part of a step each piece of the transcript is.
 */
export function applyEvent(view: RunView, e: FeedEvent): string[] {
  const changed = applyToBlocks(view, e);
  // The model answers after a retry: the notice of the retry goes.
  if (view.retrying && ANSWERING.has(e.type)) {
    view.retrying = undefined;
    return [...changed, RUN_CHANGED];
  }
  return changed;
}

/** Events that mean the model call is answering. */
const ANSWERING: ReadonlySet<FeedEvent['type']> = new Set(['text-delta', 'reasoning-delta', 'tool-call', 'llm-end']);

function applyToBlocks(view: RunView, e: FeedEvent): string[] {
  switch (e.type) {
    case 'run-start':
      view.kind = e.kind;
      view.model = e.model;
      if (e.connection) view.connection = e.connection;
      if (e.agentId) view.agent = { id: e.agentId, name: e.agent, ...(e.avatar ? { avatar: e.avatar } : {}) };
      if (e.replay) {
        const { ofRun, fromIteration, continued } = e.replay;
        view.replay = { fromIteration, ...(ofRun ? { ofRun } : {}), ...(continued ? { continued } : {}) };
      }
      return [];
    case 'llm-start':
      view.llmCalls = Math.max(view.llmCalls, e.iteration);
      view.callFormat = e.format;
      view.retrying = undefined;
      if (e.imagesWithheld) view.imagesWithheld = Math.max(view.imagesWithheld ?? 0, e.imagesWithheld);
      if (e.toolImagesWithheld) view.toolImagesWithheld = (view.toolImagesWithheld ?? 0) + e.toolImagesWithheld;
      return [...closeReasoning(view, e.t), RUN_CHANGED];
    case 'llm-retry':
      if (e.error.code === TOOLS_REFUSED_CODE) {
        view.toolsFallback = true;
        return [RUN_CHANGED];
      }
      view.retrying = { attempt: e.attempt, delayMs: e.delayMs, message: e.error.message };
      if (e.error.status !== undefined) view.retrying.status = e.error.status;
      return [RUN_CHANGED];
    case 'reasoning-delta': {
      if (view.kind === 'react') return []; // a ReAct run shows its Thoughts
      const block = openReasoning(view, `r${e.iteration}`, 'thinking', e.t);
      block.text += e.text;
      return [block.id];
    }
    case 'text-delta':
      return e.part === undefined ? appendText(view, e) : applyReactPiece(view, e, e.part);
    case 'llm-end':
      return closeReasoning(view, e.t);
    case 'tool-call': {
      const block: ToolBlock = {
        kind: 'tool',
        id: toolId(e.iteration, e.functionId),
        iteration: e.iteration,
        functionId: e.functionId,
        name: e.name,
        arguments: e.arguments,
        status: 'queued',
      };
      if (e.client) block.client = true;
      view.blocks.push(block);
      // The page gets no llm-end: a call closes the thinking before it.
      const changed = [...closeReasoning(view, e.t), block.id];
      startRunning(view);
      return changed;
    }
    case 'tool-approval': {
      // Paused before this call ("pause before tools"): it waits for the user's decision.
      const block = view.blocks.find(
        (b): b is ToolBlock => b.kind === 'tool' && b.id === toolId(e.iteration, e.functionId),
      );
      if (!block) return [];
      block.status = 'awaiting';
      return [block.id];
    }
    case 'tool-decision': {
      // Decided: the call runs now (or is skipped, or gets the user's result at once); nothing waits any more.
      const block = view.blocks.find(
        (b): b is ToolBlock => b.kind === 'tool' && b.id === toolId(e.iteration, e.functionId),
      );
      if (!block) return [];
      block.decision = e.decision;
      block.status = 'running';
      return [block.id];
    }
    case 'tool-result': {
      const block = view.blocks.find(
        (b): b is ToolBlock => b.kind === 'tool' && b.id === toolId(e.iteration, e.functionId),
      );
      if (!block) return [];
      settleTool(block, e);
      const next = startRunning(view);
      return next ? [block.id, next.id] : [block.id];
    }
    case 'retrieval': {
      // The retrieval tool's search belongs to its call's card.
      const id = e.functionId === undefined ? undefined : toolId(e.iteration, e.functionId);
      const call = view.blocks.find((b): b is ToolBlock => b.kind === 'tool' && b.id === id);
      if (!call) return [addRetrieval(view, e)];
      call.retrieval = retrievalBlock(e, `${call.id}-retrieval`);
      return [call.id];
    }
    case 'react-step':
      return e.plainReply ? showPlainReply(view, e) : [];
    case 'handoff': {
      if (!e.to || e.user) {
        const block: HandoffBlock = {
          kind: 'handoff',
          id: uniqueId(view, `handoff-${e.round}`),
          round: e.round,
          reason: e.reason,
        };
        if (e.to) block.to = e.to;
        view.blocks.push(block);
        return [...closeReasoning(view, e.t), block.id];
      }
      nextSpeaker.set(view, { round: e.round, reason: e.reason });
      return closeReasoning(view, e.t);
    }
    case 'child':
      return applyChild(view, e);
    case 'progress': {
      const list = (view.progress ??= []);
      const at = list.findIndex((p) => p.document === e.document);
      const entry = { document: e.document, done: e.done, total: e.total };
      if (at < 0) list.push(entry);
      else list[at] = entry;
      view.progress = [...list]; // a new list: the page redraws the bars
      return [];
    }
    case 'run-end':
      view.status = e.reason;
      view.retrying = undefined;
      if (e.error) view.error = e.error;
      view.usage = e.usage;
      view.durationMs = e.durationMs;
      view.llmCalls = e.llmCalls;
      return [...closeReasoning(view, e.t), ...endOpenParts(view, e.reason)];
  }
}

function retrievalBlock(e: Feed<'retrieval'>, id: string): RetrievalBlock {
  const { type: _type, t: _t, ...data } = e;
  return { ...data, kind: 'retrieval', id };
}

function addRetrieval(view: RunView, e: Feed<'retrieval'>): string {
  const block = retrievalBlock(e, uniqueId(view, `retrieval-${e.iteration}-${e.functionId ?? e.by}`));
  view.blocks.push(block);
  return block.id;
}

/** The passages of documents the run's answer drew on: every used candidate of its document searches, once each, in
 *  order (turns a VirtualMemoryAgent recalled are no documents to cite). */
export function usedPassages(view: Pick<RunView, 'blocks'>): RetrievalCandidate[] {
  const seen = new Set<string>();
  const out: RetrievalCandidate[] = [];
  for (const block of view.blocks) {
    const b = block.kind === 'tool' ? block.retrieval : block;
    if (b?.kind !== 'retrieval' || b.by === 'memory') continue;
    for (const c of b.candidates) {
      if (!c.used || seen.has(c.chunkId)) continue;
      seen.add(c.chunkId);
      out.push(c);
    }
  }
  return out;
}

/** The model answered in native mode with Qwen's `<tool_call>` markup in its text: it writes its calls as text, and
 *  its connection's tool-call mode should say so (tools in the text). */
export function toolTagsInNativeAnswer(view: Pick<RunView, 'blocks' | 'callFormat' | 'status'>): boolean {
  return view.status !== 'streaming' && view.callFormat === 'native' && answerText(view).includes('<tool_call>');
}

/** A run that the server lost (killed mid-run) is shown as interrupted, with everything streamed before (its child
 *  runs too). */
export function markInterrupted(view: RunView): void {
  if (view.status !== 'streaming') return;
  view.status = 'interrupted';
  endOpenParts(view, 'interrupted');
}

/** Where a child run's section stands. One rule for whether it still goes: its run's status, which a failed parent,
 *  a lost server and a stop end as they end its run (endOpenParts), not whether its own run-end arrived (a server
 *  killed mid-run never sends it). Ended, it says how long it took when its end is known, else how it ended. */
export type SectionState = { going: true } | { going: false; outcome: RunOutcome; durationMs?: number };

export function sectionState(block: AgentBlock): SectionState {
  const status = block.run.status;
  if (status === 'streaming') return { going: true };
  return block.endT === undefined
    ? { going: false, outcome: status }
    : { going: false, outcome: status, durationMs: block.endT - block.startT };
}

/** The answer a turn gave, as text: its own answer text and its child runs' (a Router's helper answers for it; steps
 *  aside, such as ParallelDocQA's readers, do not). */
export function answerText(view: Pick<RunView, 'blocks'>): string {
  const parts: string[] = [];
  for (const b of view.blocks) {
    if (b.kind === 'text') parts.push(b.text);
    else if (b.kind === 'agent' && !b.aside) {
      const text = answerText(b.run);
      if (text) parts.push(text);
    }
  }
  return parts.join('\n\n');
}

/** Why the next child run speaks (the handoff that came before its first event). */
const nextSpeaker = new WeakMap<RunView, { round: number; reason: HandoffReason }>();

function applyChild(view: RunView, e: Feed<'child'>): string[] {
  const inner = e.event;
  let block = view.blocks.find((b): b is AgentBlock => b.kind === 'agent' && b.runId === inner.runId);
  const changed: string[] = [];
  if (!block) {
    changed.push(...closeReasoning(view, e.t));
    block = {
      kind: 'agent',
      id: uniqueId(view, `agent-${inner.runId}`),
      runId: inner.runId,
      name: e.agent,
      startT: e.t,
      run: emptyRun(inner.runId),
    };
    if (e.aside) block.aside = true;
    const why = nextSpeaker.get(view);
    if (why) {
      block.round = why.round;
      block.reason = why.reason;
      nextSpeaker.delete(view);
    }
    view.blocks.push(block);
  }
  if (inner.type === 'run-start') {
    if (inner.avatar) block.avatar = inner.avatar;
    block.agentKind = inner.kind;
  }
  if (inner.type === 'run-end') block.endT = e.t;
  const { runId: _runId, ...event } = inner;
  const inside = new Set(applyEvent(block.run, event as FeedEvent));
  if (!inside.size && inner.type !== 'run-start' && inner.type !== 'run-end' && inner.type !== 'llm-start')
    return changed;
  const run = block.run;
  block.run = { ...run, blocks: run.blocks.map((b) => (inside.has(b.id) ? { ...b } : b)) };
  return [...changed, block.id];
}

export function foldRun(runId: string, events: Iterable<FeedEvent>): RunView {
  const view = emptyRun(runId);
  for (const e of events) applyEvent(view, e);
  return view;
}

function toolId(iteration: number, functionId: string): string {
  return `tool-${iteration}-${functionId}`;
}

/** Shows as running the call the run's events say runs now (lib/protocol/unfinished-calls.ts); returns it when it
 *  was queued until now. */
function startRunning(view: RunView): ToolBlock | undefined {
  const calls = view.blocks.filter((b): b is ToolBlock => b.kind === 'tool');
  const next =
    calls[
      runningCall(
        calls.map((b) => ({
          settled: b.result !== undefined,
          endsRun: endsRun(b.error?.kind),
          awaiting: b.status === 'awaiting',
          client: b.client,
        })),
      )
    ];
  if (next?.status !== 'queued') return undefined;
  next.status = 'running';
  return next;
}

function settleTool(block: ToolBlock, e: Feed<'tool-result'>): void {
  block.status = e.ok ? 'done' : e.error?.kind === 'stopped' ? 'stopped' : 'error';
  block.arguments = e.arguments; // as it ran (after the user's edit, when the run paused before it)
  block.result = e.content;
  block.durationMs = e.durationMs;
  if (e.error) block.error = e.error;
  if (e.files?.length) block.files = e.files;
}

/** What the run's end left open: each call without a result says whether it was running then or never started, and
 *  a child run still going ends as its parent did. */
function endOpenParts(view: RunView, outcome: RunOutcome): string[] {
  const changed: string[] = [];
  for (const b of view.blocks) {
    if (b.kind === 'tool' && (b.status === 'queued' || b.status === 'running' || b.status === 'awaiting')) {
      const cut = unfinishedCall(b.status === 'running', outcome);
      b.status = cut.kind === 'interrupted' ? 'interrupted' : 'error';
      b.error ??= { kind: cut.kind, message: cut.message, type: cut.type };
      changed.push(b.id);
    } else if (b.kind === 'agent' && b.run.status === 'streaming') {
      const run = b.run;
      run.status = outcome;
      const inside = new Set(endOpenParts(run, outcome));
      b.run = { ...run, blocks: run.blocks.map((x) => (inside.has(x.id) ? { ...x } : x)) };
      changed.push(b.id);
    }
  }
  return changed;
}

function openReasoning(view: RunView, id: string, label: ReasoningBlock['label'], t: number): ReasoningBlock {
  const last = view.blocks[view.blocks.length - 1];
  if (last?.kind === 'reasoning' && last.id === id && last.endT === undefined) return last;
  const block: ReasoningBlock = { kind: 'reasoning', id: uniqueId(view, id), label, text: '', startT: t };
  view.blocks.push(block);
  return block;
}

function closeReasoning(view: RunView, t: number): string[] {
  const changed: string[] = [];
  for (const b of view.blocks) {
    if (b.kind === 'reasoning' && b.endT === undefined) {
      b.endT = t;
      changed.push(b.id);
    }
  }
  return changed;
}

function appendText(view: RunView, e: Feed<'text-delta'>): string[] {
  const changed = closeReasoning(view, e.t);
  const last = view.blocks[view.blocks.length - 1];
  const oneTranscript = view.kind !== undefined && TRANSCRIPT_KINDS.includes(view.kind);
  if (last?.kind === 'text' && !e.newMessage && (oneTranscript || last.iteration === e.iteration)) {
    last.text += e.text;
    return [...changed, last.id];
  }
  const block: TextBlock = {
    kind: 'text',
    id: uniqueId(view, `t${e.iteration}`),
    text: e.text,
    iteration: e.iteration,
  };
  view.blocks.push(block);
  return [...changed, block.id];
}

function uniqueId(view: RunView, id: string): string {
  if (!view.blocks.some((b) => b.id === id)) return id;
  let n = 2;
  while (view.blocks.some((b) => b.id === `${id}-${n}`)) n++;
  return `${id}-${n}`;
}

// ReAct: the transcript's thoughts and answer show as blocks, the rest (markers, the call, the observation) as the
// tool card. A piece continues the block before it when it is the same part of the same step.
const lastPart = new WeakMap<RunView, ReactPart>();

function applyReactPiece(view: RunView, e: Feed<'text-delta'>, part: ReactPart): string[] {
  const continues = lastPart.get(view) === part;
  lastPart.set(view, part);
  const last = view.blocks[view.blocks.length - 1];
  if (part === 'thought') {
    if (continues && last?.kind === 'reasoning' && last.label === 'thought') {
      last.text += e.text;
      return [last.id];
    }
    // A Thought is shown whole, not timed: it opens and closes at once.
    const block: ReasoningBlock = {
      kind: 'reasoning',
      id: uniqueId(view, `thought-${e.iteration}`),
      label: 'thought',
      text: e.text,
      startT: e.t,
      endT: e.t,
    };
    view.blocks.push(block);
    return [block.id];
  }
  if (part === 'answer') {
    if (continues && last?.kind === 'text') {
      last.text += e.text;
      return [last.id];
    }
    const block: TextBlock = { kind: 'text', id: uniqueId(view, `answer-${e.iteration}`), text: e.text };
    view.blocks.push(block);
    return [block.id];
  }
  return [];
}

/** A ReAct reply without a tool call or a Final Answer streamed as a thought; it is the answer: its thought blocks
 *  (the last blocks) give way to the answer. */
function showPlainReply(view: RunView, e: Feed<'react-step'>): string[] {
  const isThought = (b: Block | undefined) => b?.kind === 'reasoning' && b.label === 'thought';
  while (isThought(view.blocks.at(-1))) view.blocks.pop();
  lastPart.set(view, 'answer');
  const text = e.finalAnswer ?? '';
  if (!text) return [RUN_CHANGED];
  const block: TextBlock = { kind: 'text', id: uniqueId(view, `answer-${e.iteration}`), text };
  view.blocks.push(block);
  return [block.id, RUN_CHANGED];
}
