'use server';
// The inspector's server actions: a stored run in full (the browser feed strips requests and input). Wiring only.
import type { LlmRequest } from '@/lib/agent/events';
import { getChatService } from '@/lib/chat';
import type { RunExport } from '@/lib/inspect/export';
import { loadRunExport, loadRunRequest } from '@/lib/inspect/load';
import { failure } from './action-error';
import type { ActionResult } from './chat';

async function attempt<T>(fn: () => T): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    return failure(e);
  }
}

/** The run's events; without the model requests unless `requests` (the inspector fetches the one it shows). */
export async function loadRunForInspection(runId: string, requests = false): Promise<ActionResult<RunExport>> {
  return attempt(() => loadRunExport(getChatService().store, runId, { requests }));
}

export async function loadIterationRequest(runId: string, iteration: number): Promise<ActionResult<LlmRequest | null>> {
  return attempt(() => loadRunRequest(getChatService().store, runId, iteration) ?? null);
}
