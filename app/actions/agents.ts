'use server';
// The Agents section's server actions: list, save, delete, export and import the signed-in user's saved agents.
// Wiring only: the checks are in lib/chat/saved-agents.ts, the rows (each its owner's) in the store.
import type { ActionResult } from '@/lib/chat/page';
import { exportAgent, importAgent, saveAgentDefinition, type AgentExport } from '@/lib/chat/saved-agents';
import { appContext } from '@/lib/server/context';
import { NotFoundError } from '@/lib/store/errors';
import type { SavedAgent } from '@/lib/store/types';
import { failure } from './action-error';
import { guardAction } from './guard';

async function attempt<T>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

export async function listAgents(): Promise<ActionResult<SavedAgent[]>> {
  const me = await guardAction();
  return attempt(async () => (await appContext()).store.listAgents(me.owner));
}

/** Creates the agent, or replaces the definition of the user's agent `id`. */
export async function saveAgent(id: string | undefined, definition: unknown): Promise<ActionResult<SavedAgent>> {
  const me = await guardAction();
  return attempt(async () => saveAgentDefinition((await appContext()).store, me.owner, id, definition));
}

export async function deleteAgent(id: string): Promise<ActionResult<boolean>> {
  const me = await guardAction();
  return attempt(async () => {
    if (!(await (await appContext()).store.deleteAgent(me.owner, id)))
      throw new NotFoundError(`Unknown agent id "${id}".`);
    return true;
  });
}

export async function exportAgentFile(id: string): Promise<ActionResult<AgentExport>> {
  const me = await guardAction();
  return attempt(async () => exportAgent((await appContext()).store, me.owner, id));
}

/** Reads an export file and saves it as a new agent of the user's. */
export async function importAgentFile(text: string): Promise<ActionResult<SavedAgent>> {
  const me = await guardAction();
  return attempt(async () => {
    const { store } = await appContext();
    return store.createAgent(me.owner, await importAgent(store, me.owner, text));
  });
}
