// The waterfall: one bar per phase of the run (waiting for the first token, generating, each tool, each retrieval),
// placed on the run's own clock (ms since it started).
import type { InspectedRun, Iteration } from './model';

export type BarKind = 'ttft' | 'generation' | 'tool' | 'retrieval';

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

export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
