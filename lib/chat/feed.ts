// What the page and POST /api/chat receive of a run: one feed for both. The full events stay in the run log (the
// inspector reads them there); the feed carries what a reader draws, so bytes grow with the answer itself:
// - no run id on each event: the reply that starts or opens a run says it once;
// - no full request per model call and no input history (inspector-only, and they would resend the history), and
//   of a run-start's settings (tools, call limit, language, call format, prices) only who ran on what model;
// - no llm-end (per-call timing and usage are inspector figures; run-end carries the totals);
// - `t` to whole milliseconds; deltas merged over a short window;
// - a child run's events (inside `child` wrappers) as the feed carries any run's, keeping their own run id, which
//   tells one child run from the next.
import type { AgentEvent, FeedEvent } from '../protocol/events';
import type { OwnerScope } from '../store/owner';
import type { ChatStore } from '../store/types';
import { leavable } from './leavable';
import type { LiveRuns } from './live-runs';

/** Long enough to merge a burst of tokens into one message (each message carries ~50 bytes of envelope), short
 *  enough to look live (20 updates a second). */
export const FEED_COALESCE_MS = 50;

/** How long a run goes on after the page that follows it has left (closed, or reloaded): a reload follows it again
 *  by then and it goes on; a closed page's run stops. */
export const PAGE_LEAVE_GRACE_MS = 5_000;

/** What a reader's leaving does: with `stopOnLeave`, stop the run (at once, or with `leaveGraceMs` only if nobody
 *  follows it that long after). */
export interface LeaveOptions {
  stopOnLeave: boolean;
  leaveGraceMs?: number;
}

/** What leaving a run the page follows does: closing the page ends its stream, and that stops the run, unless the
 *  page is opened again soon enough to follow it (a reload), when the run goes on. */
export const PAGE_LEAVE: LeaveOptions = { stopOnLeave: true, leaveGraceMs: PAGE_LEAVE_GRACE_MS };

/** An event as the feed carries it; undefined for an event the feed leaves out. */
export function feedEvent(e: AgentEvent): FeedEvent | undefined {
  if (e.type === 'llm-end') return undefined;
  let shown: AgentEvent = e;
  if (e.type === 'child') {
    const inner = feedEvent(e.event);
    if (!inner) return undefined;
    shown = { ...e, event: { ...inner, runId: e.event.runId } as AgentEvent };
  } else if (e.type === 'llm-start' && e.request) {
    const { request: _request, ...rest } = e;
    shown = rest;
  } else if (e.type === 'run-start') {
    // Who ran on what model is drawn; the run's input and settings are the inspector's.
    const {
      input: _input,
      maxLlmCalls: _max,
      tools: _tools,
      lang: _lang,
      fncallMode: _mode,
      pricing: _pricing,
      contextLength: _context,
      ...rest
    } = e;
    shown = rest as AgentEvent;
  }
  const { runId: _runId, ...rest } = shown;
  rest.t = Math.round(rest.t);
  return rest as FeedEvent;
}

/**
 * The feed of the owner's run from its first event: live while it is in progress, else (it has already ended) from its log.
 * With `stopOnLeave`, a reader that leaves before the end (a closed page, a dropped connection) stops the run (see
 * LeaveOptions).
 */
export function runFeed(
  runs: LiveRuns,
  store: Pick<ChatStore, 'getRunEvents'>,
  owner: OwnerScope,
  runId: string,
  opts: LeaveOptions,
): AsyncGenerator<FeedEvent> {
  let live: AsyncGenerator<FeedEvent> | undefined;
  async function* feed(): AsyncGenerator<FeedEvent> {
    live = await liveFeed(runs, owner, runId, opts);
    if (live) yield* live;
    else yield* storedFeed(await store.getRunEvents(owner, runId));
  }
  // A reader that leaves before the run is found leaves it through the generator's own return (yield* passes it on).
  return leavable(feed(), () => void live?.return(undefined));
}

/** The feed of a run in progress (on this instance or another sharing the database), from its first event;
 *  undefined when the run is not in progress. */
export async function liveFeed(
  runs: LiveRuns,
  owner: OwnerScope,
  runId: string,
  opts: LeaveOptions,
): Promise<AsyncGenerator<FeedEvent> | undefined> {
  const grace = opts.leaveGraceMs === undefined ? {} : { unlessFollowedWithinMs: opts.leaveGraceMs };
  const events = await runs.follow(owner, runId, {
    coalesceMs: FEED_COALESCE_MS,
    onLeave: opts.stopOnLeave ? () => void runs.stop(owner, runId, grace).catch(() => undefined) : undefined,
  });
  return events && leavable(feedOf(events), () => void events.return(undefined));
}

async function* feedOf(events: AsyncGenerator<AgentEvent>): AsyncGenerator<FeedEvent> {
  for await (const e of events) {
    const shown = feedEvent(e);
    if (shown) yield shown;
  }
}

/** A stored run's events as the feed carries them (for a conversation opened after its runs ended). */
export function storedFeed(events: readonly AgentEvent[]): FeedEvent[] {
  const shown: FeedEvent[] = [];
  for (const e of events) {
    const s = feedEvent(e);
    if (s) shown.push(s);
  }
  return shown;
}
