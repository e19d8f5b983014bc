'use server';
// Server actions for comparing runs, replaying a run from a step, and deciding on a paused tool call. Wiring only:
// the work is in lib/compare, lib/replay and lib/chat.
import { runFeed } from '@/lib/chat/feed';
import type { ActionResult, RunStream } from '@/lib/chat/page';
import { compareRuns, runChoices, type RunChoice, type RunComparison } from '@/lib/compare/runs';
import type { ToolDecision } from '@/lib/protocol/events';
import { replaySource as describeReplay, type ReplayRequest, type ReplaySource } from '@/lib/replay/plan';
import { appContext, type AppContext } from '@/lib/server/context';
import { startLimited } from '@/lib/http/run-limits';
import { CodedError } from '@/lib/protocol/errors';
import { failure } from './action-error';
import { guardAction } from './guard';
import { requestClient } from './request-client';

async function attempt<T>(fn: (ctx: AppContext) => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn(await appContext()) };
  } catch (e) {
    return failure(e);
  }
}

/** The runs of a turn, oldest first, to pick two to compare. */
export async function listTurnRuns(turnId: string): Promise<ActionResult<RunChoice[]>> {
  await guardAction();
  return attempt(async (ctx) => runChoices(await ctx.chat.runsOfTurn(turnId)));
}

/** Two runs side by side with their differences marked. */
export async function compareTurnRuns(runA: string, runB: string): Promise<ActionResult<RunComparison>> {
  await guardAction();
  return attempt(async ({ store }) => {
    const a = await store.getRun(runA);
    const b = await store.getRun(runB);
    if (!a || !b) throw new CodedError('run-gone', 'One of these runs no longer exists.');
    if (a.turnId !== b.turnId) throw new CodedError('runs-differ', 'Only runs of the same message can be compared.');
    return compareRuns(
      { runId: runA, events: await store.getRunEvents(runA) },
      { runId: runB, events: await store.getRunEvents(runB) },
    );
  });
}

/** What a replay form needs to know about a stored run: its iterations and the tool results it could edit. */
export async function replaySource(runId: string): Promise<ActionResult<ReplaySource>> {
  await guardAction();
  return attempt(async ({ store }) => describeReplay(await store.getRunEvents(runId)));
}

/** Replays a stored run from an iteration as a new run of its turn; streams like any other run. */
export async function replayRun(runId: string, req: ReplayRequest): Promise<ActionResult<RunStream>> {
  await guardAction();
  const client = await requestClient();
  return attempt(async (ctx) => {
    const started = await startLimited(
      client,
      () => ctx.chat.replay(runId, req),
      (id) => ctx.runs.ended(id),
    );
    return { ...started, events: runFeed(ctx.runs, ctx.store, started.runId, { stopOnLeave: true }) };
  });
}

/** The user's decision on the tool call a paused run waits on. */
export async function decideTool(
  runId: string,
  functionId: string,
  decision: ToolDecision,
): Promise<ActionResult<null>> {
  await guardAction();
  return attempt(async (ctx) => {
    await ctx.chat.decideTool(runId, functionId, decision);
    return null;
  });
}
