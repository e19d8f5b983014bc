// What the Runs page's index keeps of a finished run, read once from its log: the summary row, a row per tool call
// and per model call, and the text a search looks in (run-index.ts writes them, on either database).
import { runCost } from '../llm/cost';
import { contentText } from '../llm/schema';
import { AGENT_KINDS, type AgentKind } from '../protocol/enums';
import type { AgentEvent, Usage } from '../protocol/events';

/** How much of each piece goes into the full-text index (characters): a search finds words within these. */
export const INDEXED_CHARS = { message: 4000, answer: 20000, toolArguments: 2000, toolResult: 4000 } as const;

/** The run's row as the index reads it. */
export interface RunToIndex {
  started_at: number;
  ended_at: number | null;
  outcome: string;
  conversation_id: string;
  owner_id: string;
  /** The user message's search text. */
  message: string;
}

export interface RunSummary {
  agent: AgentKind | null;
  model: string | null;
  promptTokens: number;
  completionTokens: number;
  durationMs: number;
  /** What its model calls cost at the prices its run-start kept; null when no price was set (never a cost of 0). */
  cost: number | null;
  toolCalls: { name: string; ok: boolean; durationMs: number }[];
  llmCalls: { model: string; promptTokens: number; completionTokens: number; ttftMs: number | null }[];
  /** The user message, the answer, each tool call's arguments and result, one per line, each cut to its bound. */
  body: string;
}

/** `events`: the run's log (at least its run-start, llm-end, tool-result and run-end events), in order. Its child
 *  runs (a Router's helpers, a GroupChat's members, at any depth) count in its model calls, tokens, cost and tool
 *  calls, each model call at its own run's model and prices; the agent, model and duration are the run's own. */
export function summariseRun(run: RunToIndex, events: readonly AgentEvent[], answer: string): RunSummary {
  let start: RunStart | undefined;
  let end: Extract<AgentEvent, { type: 'run-end' }> | undefined;
  const starts = new Map<string, RunStart>();
  const llm: Extract<AgentEvent, { type: 'llm-end' }>[] = [];
  const tools: Extract<AgentEvent, { type: 'tool-result' }>[] = [];
  const visit = (e: AgentEvent, own: boolean): void => {
    if (e.type === 'child') visit(e.event, false);
    else if (e.type === 'run-start') {
      starts.set(e.runId, e);
      if (own) start = e;
    } else if (e.type === 'run-end') {
      if (own) end = e;
    } else if (e.type === 'llm-end') llm.push(e);
    else if (e.type === 'tool-result') tools.push(e);
  };
  for (const e of events) visit(e, true);
  const model = start?.model ?? null;
  const tokens = (k: 'promptTokens' | 'completionTokens') => llm.reduce((n, e) => n + (e.usage?.[k] ?? 0), 0);
  const cost = treeCost(llm, starts);
  const pieces = [run.message.slice(0, INDEXED_CHARS.message), answer.slice(0, INDEXED_CHARS.answer)];
  for (const e of tools) {
    pieces.push(e.arguments.slice(0, INDEXED_CHARS.toolArguments));
    pieces.push(contentText(e.content).slice(0, INDEXED_CHARS.toolResult));
  }
  return {
    agent: start && (AGENT_KINDS as readonly string[]).includes(start.kind) ? start.kind : null,
    model,
    promptTokens: tokens('promptTokens'),
    completionTokens: tokens('completionTokens'),
    durationMs: Math.round(end?.durationMs ?? Math.max(0, (run.ended_at ?? run.started_at) - run.started_at)),
    cost,
    toolCalls: tools.map((e) => ({ name: e.name, ok: e.ok, durationMs: e.durationMs })),
    llmCalls: llm.map((e) => ({
      model: starts.get(e.runId)?.model ?? model ?? '',
      promptTokens: e.usage?.promptTokens ?? 0,
      completionTokens: e.usage?.completionTokens ?? 0,
      ttftMs: e.ttftMs ?? null,
    })),
    body: pieces.filter(Boolean).join('\n'),
  };
}

type RunStart = Extract<AgentEvent, { type: 'run-start' }>;

/** What the model calls of a run and its children cost, each run's at the prices its run-start kept; null when no run
 *  had a price. Calls without token counts, or of a run without a price, add nothing (the cost is then a lower
 *  bound, as the inspector says). */
function treeCost(llm: readonly Extract<AgentEvent, { type: 'llm-end' }>[], starts: ReadonlyMap<string, RunStart>) {
  const usages = new Map<string, (Usage | undefined)[]>();
  for (const e of llm) usages.set(e.runId, [...(usages.get(e.runId) ?? []), e.usage]);
  let total: number | null = null;
  for (const [runId, start] of starts) {
    const cost = runCost(usages.get(runId) ?? [], start.pricing);
    if (cost.state === 'priced') total = (total ?? 0) + cost.amount;
  }
  return total;
}

/** The words of a search: every one must occur, as a substring, case aside (a `"` is no part of a word). */
export function searchWords(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\s+/)
    .map((w) => w.replaceAll('"', ''))
    .filter(Boolean);
}
