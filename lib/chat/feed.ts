// What the page receives of a run. The full events stay in the run log (the inspector reads them there); the page
// gets what it draws, so bytes grow with the answer itself:
// - no run id on each event: the reply that starts or opens a run says it once;
// - no full request per model call and no input history (inspector-only, and they would resend the history);
// - no llm-end (per-call timing and usage are inspector figures; run-end carries the totals);
// - `t` to whole milliseconds; deltas merged over a short window.
import type { AgentEvent } from '../protocol/events';
import type { LiveRun } from './live-runs';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as the page receives it: a run's event without its run id. */
export type FeedEvent = DistributiveOmit<AgentEvent, 'runId'>;

/** Long enough to merge a burst of tokens into one message (each message carries ~50 bytes of envelope), short
 *  enough to look live (20 updates a second). */
export const BROWSER_COALESCE_MS = 50;

/** For HTTP clients (the SSE route): the whole union, minus the inspector-only request and input. */
export function withoutInspectorFields(e: AgentEvent): AgentEvent {
  if (e.type === 'llm-start' && e.request) {
    const { request: _request, ...rest } = e;
    return rest;
  }
  if (e.type === 'run-start' && e.input) {
    const { input: _input, ...rest } = e;
    return rest;
  }
  return e;
}

/** For the page; undefined for an event the page does not draw. */
export function forBrowser(e: AgentEvent): FeedEvent | undefined {
  if (e.type === 'llm-end') return undefined;
  const { runId: _runId, ...rest } = withoutInspectorFields(e);
  rest.t = Math.round(rest.t);
  return rest;
}

export async function* browserFeed(live: LiveRun, opts: { stopOnLeave: boolean }): AsyncGenerator<FeedEvent> {
  for await (const e of live.follow({
    coalesceMs: BROWSER_COALESCE_MS,
    onLeave: opts.stopOnLeave ? () => live.stop() : undefined,
  })) {
    const shown = forBrowser(e);
    if (shown) yield shown;
  }
}

/** Stored events, as the page receives them (for a conversation opened after its runs ended). */
export function storedForBrowser(events: AgentEvent[]): FeedEvent[] {
  const shown: FeedEvent[] = [];
  for (const e of events) {
    const s = forBrowser(e);
    if (s) shown.push(s);
  }
  return shown;
}
