'use server';
// Server actions for comparing runs, replaying a run from a step, and deciding on a paused tool call. Wiring only:
// the work is in lib/compare, lib/replay and lib/chat.
import { PAGE_LEAVE, runFeed } from '@/lib/chat/feed';
import type { ActionResult, RunStream } from '@/lib/chat/page';
import { compareRuns, runChoices, type RunChoice, type RunComparison } from '@/lib/compare/runs';
import type { ToolDecision } from '@/lib/protocol/events';
import { replaySource as describeReplay, type ReplayRequest, type ReplaySource } from '@/lib/replay/plan';
import { appContext, type AppContext } from '@/lib/server/context';
import { NotFoundError } from '@/lib/store/errors';
import { startLimited } from '@/lib/http/run-limits';
import { CodedError } from '@/lib/protocol/errors';
import { failure } from './action-error';
import { guardAction, requestLimitKey } from './guard';

async function attempt<T>(fn: (ctx: AppContext) => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn(await appContext()) };
  } catch (e) {
    return failure(e);
  }
}

/** The runs of a turn, oldest first, to pick two to compare. */
export async function listTurnRuns(turnId: string): Promise<ActionResult<RunChoice[]>> {
  const me = await guardAction('listTurnRuns');
  return attempt(async (ctx) => runChoices(await ctx.chat.runsOfTurn(me, turnId)));
}

/** Two runs side by side with their differences marked. */
export async function compareTurnRuns(runA: string, runB: string): Promise<ActionResult<RunComparison>> {
  const me = await guardAction('compareTurnRuns');
  return attempt(async ({ store }) => {
    const a = await store.getRun(me.owner, runA);
    const b = await store.getRun(me.owner, runB);
    if (!a || !b) throw new NotFoundError('One of these runs no longer exists.', 'run-gone');
    if (a.turnId !== b.turnId) throw new CodedError('runs-differ', 'Only runs of the same message can be compared.');
    return compareRuns(
      { runId: runA, events: await store.getRunEvents(me.owner, runA) },
      { runId: runB, events: await store.getRunEvents(me.owner, runB) },
    );
  });
}

/** What a replay form needs to know about a stored run: its iterations and the tool results it could edit. */
export async function replaySource(runId: string): Promise<ActionResult<ReplaySource>> {
  const me = await guardAction('replaySource');
  return attempt(async ({ store }) => describeReplay(await store.getRunEvents(me.owner, runId)));
}

/** Replays a stored run from an iteration as a new run of its turn; streams like any other run. */
export async function replayRun(runId: string, req: ReplayRequest): Promise<ActionResult<RunStream>> {
  const me = await guardAction('replayRun');
  const key = await requestLimitKey(me);
  return attempt(async (ctx) => {
    const started = await startLimited(
      ctx.runLimits,
      key,
      () => ctx.chat.replay(me, runId, req),
      (id) => ctx.runs.ended(id),
    );
    return { ...started, events: runFeed(ctx.runs, ctx.store, me.owner, started.runId, PAGE_LEAVE) };
  });
}

/** Continue: a run stopped at the model-call limit goes on from where it stopped, as a new run of its turn. */
export async function continueRun(runId: string): Promise<ActionResult<RunStream>> {
  const me = await guardAction('continueRun');
  const key = await requestLimitKey(me);
  return attempt(async (ctx) => {
    const started = await startLimited(
      ctx.runLimits,
      key,
      () => ctx.chat.continueRun(me, String(runId)),
      (id) => ctx.runs.ended(id),
    );
    return { ...started, events: runFeed(ctx.runs, ctx.store, me.owner, started.runId, PAGE_LEAVE) };
  });
}

/** The user's decision on the tool call a paused run waits on. */
export async function decideTool(
  runId: string,
  functionId: string,
  decision: ToolDecision,
  childRunId?: string,
): Promise<ActionResult<null>> {
  const me = await guardAction('decideTool');
  return attempt(async (ctx) => {
    await ctx.chat.decideTool(me, runId, functionId, decision, childRunId);
    return null;
  });
}
