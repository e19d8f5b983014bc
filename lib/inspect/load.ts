// Server side: a stored run as an export bundle (every event, the requests and input the browser feed leaves out).
// The inspector opens a run without the requests (the request of call N repeats the whole history before it, so a
// long run's requests add up to megabytes) and with adjacent deltas merged (thousands of small events for a long
// run; the fold only joins their text), and fetches the one request it shows; export takes every event as stored.
import type { AgentEvent, LlmRequest } from '../protocol/events';
import { coalesceDeltas } from '../chat/live-runs';
import { contentText } from '../llm/schema';
import { CodedError } from '../protocol/errors';
import { NotFoundError } from '../store/errors';
import type { OwnerScope } from '../store/owner';
import type { ChatStore } from '../store/types';
import { buildRunExport, type RunExport } from './export';

async function storedEvents(store: ChatStore, owner: OwnerScope, runId: string): Promise<AgentEvent[]> {
  if (!(await store.getRun(owner, runId)))
    throw new NotFoundError(`Run ${runId} was not found (its conversation may have been deleted).`);
  const events = await store.getRunEvents(owner, runId);
  if (!events.length)
    throw new CodedError(
      'run-no-events',
      `Run ${runId} has no recorded events yet: open it again in a moment.`,
      undefined,
      409,
    );
  return events;
}

function withoutRequest(e: AgentEvent): AgentEvent {
  if (e.type === 'child') return { ...e, event: withoutRequest(e.event) };
  if (e.type !== 'llm-start' || !e.request) return e;
  const { request: _request, ...rest } = e;
  return rest;
}

/** With `requests: false`, the inspector's light view: no requests, deltas merged (not for export). */
export async function loadRunExport(
  store: ChatStore,
  owner: OwnerScope,
  runId: string,
  opts: { requests?: boolean } = {},
): Promise<RunExport> {
  const events = await storedEvents(store, owner, runId);
  const stored = (await store.getRun(owner, runId))!;
  const turn = await store.getTurn(owner, stored.turnId);
  const conversation = turn ? await store.getConversation(owner, turn.conversationId) : undefined;
  const run: RunExport['run'] = { id: runId, status: stored.status, startedAt: stored.startedAt };
  if (stored.endedAt !== undefined) run.endedAt = stored.endedAt;
  if (conversation) run.conversationTitle = conversation.title;
  if (turn) run.userMessage = contentText(turn.content);
  return buildRunExport(run, opts.requests === false ? coalesceDeltas(events.map(withoutRequest)) : events);
}

/** The exact request of one model call of a stored run, or of one of its child runs (`childRunId`, at any depth);
 *  undefined when that call's request was not recorded. */
export async function loadRunRequest(
  store: ChatStore,
  owner: OwnerScope,
  runId: string,
  iteration: number,
  childRunId?: string,
): Promise<LlmRequest | undefined> {
  for (const stored of await storedEvents(store, owner, runId)) {
    const wanted = childRunId ?? runId;
    let e = stored;
    while (e.type === 'child' && e.runId !== wanted) e = e.event;
    if (e.runId !== wanted) continue;
    if (e.type === 'llm-start' && e.iteration === iteration) return e.request;
  }
  return undefined;
}
