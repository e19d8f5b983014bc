// What the page receives of a run: the events, minus what only the inspector needs (the full request of each model
// call, the run's input history), with deltas merged over a short window so bytes grow with the answer itself.
import type { AgentEvent } from '../agent/events';
import type { LiveRun } from './live-run';

/** Long enough to merge a burst of tokens into one message (each message carries ~100 bytes of envelope), short
 *  enough to look live (20 updates a second). */
export const BROWSER_COALESCE_MS = 50;

export function forBrowser(e: AgentEvent): AgentEvent {
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

export async function* browserFeed(live: LiveRun, opts: { stopOnLeave: boolean }): AsyncGenerator<AgentEvent> {
  for await (const e of live.follow({
    coalesceMs: BROWSER_COALESCE_MS,
    onLeave: opts.stopOnLeave ? () => live.stop() : undefined,
  })) {
    yield forBrowser(e);
  }
}

/** Stored events, as the page receives them (for a conversation opened after its runs ended). */
export function storedForBrowser(events: AgentEvent[]): AgentEvent[] {
  return events.map(forBrowser);
}
