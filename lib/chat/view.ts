// The page's view of a run: the event stream folded into blocks in the order they happened: reasoning, tool
// calls, answer text. Pure and framework-free: the client store applies it event by event; tests run it in Node.
import type { AgentEvent, ErrorInfo, EventOf, StopReason, Usage } from '../agent/events';
import { parseReactSteps } from '../llm/fncall';
import type { ContentItem } from '../llm/schema';

export type ToolStatus = 'queued' | 'awaiting' | 'running' | 'done' | 'error';

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
  error?: { kind: string; message: string; type: string };
  durationMs?: number;
  /** Set when the run paused before this call: what the user decided (run, skip, supply a result). */
  decision?: EventOf<'tool-result'>['decision'];
}

export interface TextBlock {
  kind: 'text';
  id: string;
  text: string;
}

export type Block = ReasoningBlock | ToolBlock | TextBlock;

export type TurnStatus = 'streaming' | StopReason | 'interrupted';

export interface RunView {
  runId: string;
  agentType: string;
  status: TurnStatus;
  error?: ErrorInfo;
  blocks: Block[];
  usage?: Usage;
  durationMs?: number;
  llmCalls: number;
  /** Set while the model server is being retried. */
  retrying?: { attempt: number; delayMs: number; message: string };
}

export function emptyRun(runId: string): RunView {
  return { runId, agentType: '', status: 'streaming', blocks: [], llmCalls: 0 };
}

/**
 * Applies one event to a run view, in place, and returns the ids of the blocks that changed (so a UI can re-render
 * only those). ReAct runs are shown as steps (thought, tool card, answer), not as a raw transcript.
 */
export function applyEvent(view: RunView, e: AgentEvent): string[] {
  switch (e.type) {
    case 'run-start':
      view.agentType = e.agentType;
      return [];
    case 'llm-start':
      view.llmCalls = Math.max(view.llmCalls, e.iteration);
      view.retrying = undefined;
      return closeReasoning(view, e.t);
    case 'llm-retry':
      view.retrying = { attempt: e.attempt, delayMs: e.delayMs, message: e.error.message };
      return [];
    case 'reasoning-delta': {
      if (view.agentType === 'ReActChat') return [];
      const block = openReasoning(view, `r${e.iteration}`, 'thinking', e.t);
      block.text += e.text;
      return [block.id];
    }
    case 'text-delta':
      return view.agentType === 'ReActChat'
        ? applyReactText(view, e)
        : appendText(view, `t${e.iteration}`, e.text, e.t);
    case 'llm-end':
      return closeReasoning(view, e.t);
    case 'tool-call': {
      if (view.agentType === 'ReActChat') return [];
      const block: ToolBlock = {
        kind: 'tool',
        id: toolId(e.iteration, e.functionId),
        iteration: e.iteration,
        functionId: e.functionId,
        name: e.name,
        arguments: e.arguments,
        status: 'queued',
      };
      view.blocks.push(block);
      const changed = [block.id];
      // Calls of one response run in order: the first queued one is the one running.
      const first = firstQueued(view);
      if (first && first.id === block.id && !hasRunning(view)) first.status = 'running';
      return changed;
    }
    case 'tool-approval': {
      // Paused before this call ("pause before tools"): it waits for the user's decision.
      const block = view.blocks.find(
        (b): b is ToolBlock =>
          b.kind === 'tool' && (b.id === toolId(e.iteration, e.functionId) || isReactCall(view, b, e)),
      );
      if (!block) return [];
      block.status = 'awaiting';
      return [block.id];
    }
    case 'tool-result': {
      if (view.agentType === 'ReActChat') {
        reactToolResult(view, e);
        return view.blocks.filter((b) => b.kind === 'tool' && b.iteration === e.iteration).map((b) => b.id);
      }
      const block = view.blocks.find(
        (b): b is ToolBlock => b.kind === 'tool' && b.id === toolId(e.iteration, e.functionId),
      );
      if (!block) return [];
      settleTool(block, e);
      const changed = [block.id];
      const next = firstQueued(view);
      if (next) {
        next.status = 'running';
        changed.push(next.id);
      }
      return changed;
    }
    case 'react-step':
    case 'retrieval': // shown by the documents view (issue 4)
      return [];
    case 'run-end':
      view.status = e.reason;
      view.retrying = undefined;
      if (e.error) view.error = e.error;
      view.usage = e.usage;
      view.durationMs = e.durationMs;
      view.llmCalls = e.llmCalls;
      return [...closeReasoning(view, e.t), ...stopPendingTools(view)];
  }
}

/** A run that the server lost (killed mid-run) is shown as interrupted, with everything streamed before. */
export function markInterrupted(view: RunView): void {
  if (view.status !== 'streaming') return;
  view.status = 'interrupted';
  stopPendingTools(view);
}

export function foldRun(runId: string, events: Iterable<AgentEvent>): RunView {
  const view = emptyRun(runId);
  for (const e of events) applyEvent(view, e);
  return view;
}

function toolId(iteration: number, functionId: string): string {
  return `tool-${iteration}-${functionId}`;
}

function firstQueued(view: RunView): ToolBlock | undefined {
  return view.blocks.find((b): b is ToolBlock => b.kind === 'tool' && b.status === 'queued');
}

function hasRunning(view: RunView): boolean {
  return view.blocks.some((b) => b.kind === 'tool' && b.status === 'running');
}

function isReactCall(view: RunView, b: ToolBlock, e: { iteration: number }): boolean {
  return view.agentType === 'ReActChat' && b.iteration === e.iteration;
}

function settleTool(block: ToolBlock, e: EventOf<'tool-result'>): void {
  block.status = e.ok ? 'done' : 'error';
  if (e.decision) {
    block.decision = e.decision;
    if (e.decision.action === 'run' && e.decision.arguments !== undefined) block.arguments = e.decision.arguments;
  }
  block.result = e.content;
  block.durationMs = e.durationMs;
  if (e.error) block.error = e.error;
}

function stopPendingTools(view: RunView): string[] {
  const changed: string[] = [];
  for (const b of view.blocks) {
    if (b.kind === 'tool' && (b.status === 'queued' || b.status === 'running' || b.status === 'awaiting')) {
      b.status = 'error';
      b.error ??= { kind: 'not-run', message: 'The run ended before this call finished.', type: 'NotRun' };
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

function appendText(view: RunView, id: string, text: string, t: number): string[] {
  const changed = closeReasoning(view, t);
  const last = view.blocks[view.blocks.length - 1];
  if (last?.kind === 'text') {
    last.text += text;
    return [...changed, last.id];
  }
  const block: TextBlock = { kind: 'text', id: uniqueId(view, id), text };
  view.blocks.push(block);
  return [...changed, block.id];
}

function uniqueId(view: RunView, id: string): string {
  if (!view.blocks.some((b) => b.id === id)) return id;
  let n = 2;
  while (view.blocks.some((b) => b.id === `${id}-${n}`)) n++;
  return `${id}-${n}`;
}

// ReAct: the transcript streams as text; it is re-read into steps (small: a few KB per run) on each delta.
const reactTranscripts = new WeakMap<RunView, string>();

function applyReactText(view: RunView, e: EventOf<'text-delta'>): string[] {
  const transcript = (reactTranscripts.get(view) ?? '') + e.text;
  reactTranscripts.set(view, transcript);
  const steps = parseReactSteps(transcript);
  const tools = view.blocks.filter((b): b is ToolBlock => b.kind === 'tool');
  const blocks: Block[] = [];
  steps.forEach((step, i) => {
    if (step.thought.trim()) {
      blocks.push({
        kind: 'reasoning',
        id: `thought-${i}`,
        label: 'thought',
        text: step.thought.trim(),
        startT: e.t,
        endT: e.t,
      });
    }
    if (step.action !== undefined) {
      const existing = tools[blocks.filter((b) => b.kind === 'tool').length];
      const block: ToolBlock = existing ?? {
        kind: 'tool',
        id: `react-tool-${i}`,
        iteration: i + 1,
        functionId: String(i + 1),
        name: step.action,
        arguments: step.actionInput ?? '',
        status: step.observation !== undefined ? 'done' : 'running',
      };
      block.name = step.action;
      block.arguments = step.actionInput ?? '';
      if (step.observation !== undefined && block.status === 'running') {
        block.status = 'done';
        block.result = step.observation;
      }
      blocks.push(block);
    }
    if (step.finalAnswer !== undefined) blocks.push({ kind: 'text', id: `answer-${i}`, text: step.finalAnswer });
  });
  view.blocks = blocks;
  return blocks.map((b) => b.id);
}

/** Applies a ReAct tool-result to its card (status, exact result or error, duration). */
function reactToolResult(view: RunView, e: EventOf<'tool-result'>): void {
  const block = view.blocks.find((b): b is ToolBlock => b.kind === 'tool' && b.iteration === e.iteration);
  if (block) settleTool(block, e);
}
