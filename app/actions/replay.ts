'use server';
// Server actions for comparing runs, replaying a run from a step, and deciding on a paused tool call. Wiring only:
// the work is in lib/compare, lib/replay and lib/chat.
import type { ToolDecision } from '@/lib/agent/events';
import { browserFeed, getChatService } from '@/lib/chat';
import { compareRuns, type RunComparison } from '@/lib/compare/runs';
import { editableToolResults, type ReplayRequest } from '@/lib/replay/plan';
import { ActionError, failure } from './action-error';
import type { ActionResult, RunStream } from './chat';

async function attempt<T>(fn: () => T | Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

export interface RunChoice {
  id: string;
  /** 1 for the turn's first run, then in order. */
  number: number;
  status: string;
  startedAt: number;
  model: string;
  /** Which run (by number) and iteration it replayed, when it is a replay. */
  replayOf?: { number: number; fromIteration: number };
}

/** The runs of a turn, oldest first, to pick two to compare. */
export async function listTurnRuns(turnId: string): Promise<ActionResult<RunChoice[]>> {
  return attempt(() => {
    const runs = getChatService().runsOfTurn(turnId);
    const numbers = new Map(runs.map((r, i) => [r.id, i + 1]));
    return runs.map((r, i): RunChoice => {
      const start = r.events.find((e) => e.type === 'run-start');
      const replay = start?.type === 'run-start' ? start.replay : undefined;
      return {
        id: r.id,
        number: i + 1,
        status: r.status,
        startedAt: r.startedAt,
        model: start?.type === 'run-start' ? start.model : '',
        ...(replay ? { replayOf: { number: numbers.get(replay.of) ?? 0, fromIteration: replay.fromIteration } } : {}),
      };
    });
  });
}

/** Two runs side by side with their differences marked. */
export async function compareTurnRuns(runA: string, runB: string): Promise<ActionResult<RunComparison>> {
  return attempt(() => {
    const { store } = getChatService();
    const a = store.getRun(runA);
    const b = store.getRun(runB);
    if (!a || !b) throw new ActionError('run-gone', 'One of these runs no longer exists.');
    if (a.turnId !== b.turnId) throw new ActionError('runs-differ', 'Only runs of the same message can be compared.');
    return compareRuns(
      { runId: runA, events: store.getRunEvents(runA) },
      { runId: runB, events: store.getRunEvents(runB) },
    );
  });
}

export interface ReplaySource {
  iterations: number;
  model: string;
  toolResults: { iteration: number; functionId: string; name: string; content: string }[];
}

/** What a replay form needs to know about a stored run: its iterations and the tool results it could edit. */
export async function replaySource(runId: string): Promise<ActionResult<ReplaySource>> {
  return attempt(() => {
    const events = getChatService().store.getRunEvents(runId);
    const start = events.find((e) => e.type === 'run-start');
    return {
      iterations: events.filter((e) => e.type === 'llm-start').length,
      model: start?.type === 'run-start' ? start.model : '',
      toolResults: editableToolResults(events),
    };
  });
}

/** Replays a stored run from an iteration as a new run of its turn; streams like any other run. */
export async function replayRun(runId: string, req: ReplayRequest): Promise<ActionResult<RunStream>> {
  return attempt(() => {
    const started = getChatService().replay(runId, req);
    return {
      conversationId: started.conversationId,
      turnId: started.turnId,
      runId: started.runId,
      events: browserFeed(started.live, { stopOnLeave: true }),
    };
  });
}

/** The user's decision on the tool call a paused run waits on. */
export async function decideTool(
  runId: string,
  functionId: string,
  decision: ToolDecision,
): Promise<ActionResult<null>> {
  return attempt(() => {
    getChatService().decideTool(runId, functionId, decision);
    return null;
  });
}
