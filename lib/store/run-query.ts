// The Runs page's question and answers: which runs (filters, a search, a page), their rows, and the figures over
// them (the filters' form in the address bar: lib/inspect/runs-address.ts). Plain data: no database in this file.
import type { AgentKind, RunOutcome } from '../protocol/enums';
import type { OwnerScope } from './owner';
import type { Entity, Tables } from './tables';

export const RUNS_PER_PAGE = 25;

/** The words a search looks for, each of which a run must hold: the text split at spaces, a `"` no part of a word
 *  (quotes typed around a phrase find its words). Text of quotes and spaces alone is no search. */
export function searchWords(text: string | undefined): string[] {
  return (text ?? '')
    .split(/\s+/)
    .map((w) => w.replaceAll('"', ''))
    .filter(Boolean);
}

export interface RunQuery {
  outcome?: RunOutcome;
  /** Runs that called this tool (with `failedToolsOnly`: that had a failed call of it). */
  tool?: string;
  model?: string;
  agent?: AgentKind;
  /** Runs of the conversations with this saved agent (its id). */
  savedAgent?: string;
  /** Days, YYYY-MM-DD (UTC), both included. */
  from?: string;
  to?: string;
  failedToolsOnly?: boolean;
  /** Words every matching run holds somewhere in its user message, answer, tool arguments or tool results. */
  text?: string;
  /** 1-based. */
  page?: number;
}

/** A run's summary as the index keeps it (tables.ts run_summaries), with its conversation's title. */
export type RunListRow = Entity<Omit<Tables['run_summaries'], 'id' | 'owner_id'>> & {
  conversationTitle: string;
  /** The saved agent of the run's conversation, by its name now (absent: none, or it was deleted). */
  savedAgent?: { id: string; name: string };
};

export interface RunPage {
  rows: RunListRow[];
  /** How many runs match, over all pages (counted up to a cap: see moreThanTotal). */
  total: number;
  /** More runs than `total` match (the count stopped at its cap). */
  moreThanTotal?: true;
  page: number;
  /** The number of pages, when the count is exact. */
  pageCount?: number;
  /** A later page has runs. */
  hasOlder: boolean;
}

export interface ToolFigure {
  name: string;
  calls: number;
  failed: number;
  p50Ms: number;
  p95Ms: number;
}
export interface ModelFigure {
  model: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Over the calls that reported a time to first token; undefined when none did. */
  ttftP50Ms?: number;
  ttftP95Ms?: number;
}
export interface RunFigures {
  /** How many runs the figures cover: the newest matching ones, up to a cap (newestOnly when it was reached). */
  runs: number;
  newestOnly: boolean;
  tools: ToolFigure[];
  models: ModelFigure[];
  /** Matching runs per day (YYYY-MM-DD, UTC), oldest first. */
  days: { day: string; runs: number }[];
}

/** What the filters can pick: every tool, model and agent kind the owner's runs have, and the owner's saved agents
 *  (by name). */
export interface RunFacets {
  tools: string[];
  models: string[];
  agents: AgentKind[];
  savedAgents: { id: string; name: string }[];
}

/** The runs queries of a store. Every one takes the owner: a store answers with that owner's runs only. */
export interface RunSearchStore {
  searchRuns(owner: OwnerScope, query: RunQuery): Promise<RunPage>;
  runFigures(owner: OwnerScope, query: RunQuery): Promise<RunFigures>;
  runFacets(owner: OwnerScope): Promise<RunFacets>;
}
