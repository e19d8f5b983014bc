// The waterfall: one bar per phase of the run (waiting for the first token, generating, each tool, each retrieval),
// placed on the run's own clock (ms since it started). Child runs (a Router's helper, a GroupChat's members) nest under
// the parent's iteration that came before them: a row for the child's span, then its own iterations, on the same
// clock.
import type { ChildRun, InspectedRun, Iteration } from './model';

export type BarKind = 'ttft' | 'generation' | 'tool' | 'retrieval' | 'child';

export interface Bar {
  iteration: number;
  kind: BarKind;
  label: string;
  /** A retrieval bar's query (its label quotes it). */
  query?: string;
  startMs: number;
  endMs: number;
  /** A failed tool call. */
  failed?: boolean;
}

export function iterationBars(it: Iteration): Bar[] {
  const bars: Bar[] = [];
  for (const r of it.retrievals) {
    bars.push({
      iteration: it.n,
      kind: 'retrieval',
      label: `retrieval "${r.query}"`,
      query: r.query,
      startMs: r.startT,
      endMs: r.startT + r.durationMs,
    });
  }
  const end = it.endT ?? (it.durationMs !== undefined ? it.startT + it.durationMs : undefined);
  if (end !== undefined) {
    const firstToken = it.ttftMs !== undefined ? Math.min(end, it.startT + it.ttftMs) : it.startT;
    if (it.ttftMs !== undefined)
      bars.push({ iteration: it.n, kind: 'ttft', label: 'time to first token', startMs: it.startT, endMs: firstToken });
    bars.push({ iteration: it.n, kind: 'generation', label: 'generation', startMs: firstToken, endMs: end });
  }
  for (const tool of it.tools) {
    const bar: Bar = {
      iteration: it.n,
      kind: 'tool',
      label: tool.name,
      startMs: tool.startT,
      endMs: tool.endT ?? tool.startT + (tool.durationMs ?? 0),
    };
    if (tool.ok === false) bar.failed = true;
    bars.push(bar);
  }
  return bars;
}

export function runBars(run: InspectedRun): Bar[] {
  const bars: Bar[] = run.retrievals.map((r) => ({
    iteration: 0,
    kind: 'retrieval' as const,
    label: `retrieval "${r.query}"`,
    query: r.query,
    startMs: r.startT,
    endMs: r.startT + r.durationMs,
  }));
  for (const it of run.iterations) bars.push(...iterationBars(it));
  return bars;
}

/** One row of the waterfall: an iteration of the run shown, a child run, or one of a child's iterations. */
export interface WaterfallRow {
  key: string;
  /** 0 for the run shown; 1 for its children and their iterations' rows one deeper, and so on. */
  depth: number;
  row:
    | { kind: 'iteration'; n: number }
    | { kind: 'child'; agent: string; round?: number }
    | { kind: 'child-iteration'; agent: string; n: number };
  /** Under the run shown: which child (indices, child of child…) the row belongs to; absent for its own iterations. */
  child?: number[];
  bars: Bar[];
}

function shifted(bars: Bar[], by: number): Bar[] {
  return bars.map((b) => ({ ...b, startMs: b.startMs + by, endMs: b.endMs + by }));
}

function childRows(child: ChildRun, path: number[], depth: number, offset: number): WaterfallRow[] {
  const at = offset + child.startT;
  const rows: WaterfallRow[] = [
    {
      key: `child:${path.join('.')}`,
      depth,
      row: { kind: 'child', agent: child.agent, ...(child.round !== undefined ? { round: child.round } : {}) },
      child: path,
      bars: [{ iteration: 0, kind: 'child', label: child.agent, startMs: at, endMs: offset + child.endT }],
    },
  ];
  rows.push(...nested(child.run, path, depth + 1, at));
  return rows;
}

/** A run's iterations, each followed by the children that started after it (before the next one). */
function nested(run: InspectedRun, path: number[], depth: number, offset: number, only?: Iteration[]): WaterfallRow[] {
  const iterations = only ?? run.iterations;
  const children = (run.children ?? []).map((c, i) => ({ c, i }));
  const rows: WaterfallRow[] = [];
  const anchor = (c: ChildRun) => run.iterations.findLast((it) => it.startT <= c.startT)?.n ?? 0;
  const childrenAfter = (n: number) =>
    children
      .filter(({ c }) => anchor(c) === n)
      .flatMap(({ c, i }) => childRows(c, [...path, i], depth === 0 && !path.length ? 1 : depth, offset));
  // Children that began before the first model call (a GroupChat's members, picked without one) come first.
  if (!only || iterations[0]?.n === 1 || !iterations.length) rows.push(...childrenAfter(0));
  for (const it of iterations) {
    const bars = shifted(iterationBars(it), offset);
    if (path.length)
      rows.push({
        key: `${path.join('.')}:${it.n}`,
        depth,
        row: { kind: 'child-iteration', agent: run.agent, n: it.n },
        child: path,
        bars,
      });
    else rows.push({ key: `${it.n}`, depth: 0, row: { kind: 'iteration', n: it.n }, bars });
    rows.push(...childrenAfter(it.n));
  }
  return rows;
}

/** The waterfall's rows for the run shown: `iterations` (a page of its iterations) with the child runs nested under
 *  the iteration before each, on the run's clock. */
export function waterfallRows(run: InspectedRun, iterations: Iteration[] = run.iterations): WaterfallRow[] {
  return nested(run, [], 0, 0, iterations);
}

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
