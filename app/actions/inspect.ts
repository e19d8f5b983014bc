'use server';
// The inspector's server actions: a stored run in full (the feed strips requests and input). Wiring only.
import type { ActionResult } from '@/lib/chat/page';
import type { RunExport } from '@/lib/inspect/export';
import { loadRunExport, loadRunRequest } from '@/lib/inspect/load';
import type { LlmRequest } from '@/lib/protocol/events';
import { appContext } from '@/lib/server/context';
import { failure } from './action-error';
import { guardAction } from './guard';

async function attempt<T>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

/** The run's events; without the model requests unless `requests` (the inspector fetches the one it shows). */
export async function loadRunForInspection(runId: string, requests = false): Promise<ActionResult<RunExport>> {
  const me = await guardAction('loadRunForInspection');
  return attempt(async () => loadRunExport((await appContext()).store, me.owner, runId, { requests }));
}

/** One model call's request; `childRunId` for a call of one of the run's child runs. */
export async function loadIterationRequest(
  runId: string,
  iteration: number,
  childRunId?: string,
): Promise<ActionResult<LlmRequest | null>> {
  const me = await guardAction('loadIterationRequest');
  return attempt(
    async () => (await loadRunRequest((await appContext()).store, me.owner, runId, iteration, childRunId)) ?? null,
  );
}
