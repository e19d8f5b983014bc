'use server';
// The Agents page's server actions: list, save, delete, export and import saved agents. Wiring only: the checks are
// in lib/chat/saved-agents.ts, the rows in the store.
import type { ActionResult } from '@/lib/chat/page';
import { exportAgent, importAgent, parseAgentDefinition, type AgentExport } from '@/lib/chat/saved-agents';
import { appContext } from '@/lib/server/context';
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
  await guardAction();
  return attempt(async () => (await appContext()).store.listAgents());
}

/** Creates the agent, or replaces the definition of agent `id`. */
export async function saveAgent(id: string | undefined, definition: unknown): Promise<ActionResult<SavedAgent>> {
  await guardAction();
  return attempt(async () => {
    const { store } = await appContext();
    const checked = parseAgentDefinition(definition);
    return id ? store.updateAgent(id, checked) : store.createAgent(checked);
  });
}

export async function deleteAgent(id: string): Promise<ActionResult<boolean>> {
  await guardAction();
  return attempt(async () => (await appContext()).store.deleteAgent(id));
}

export async function exportAgentFile(id: string): Promise<ActionResult<AgentExport>> {
  await guardAction();
  return attempt(async () => exportAgent((await appContext()).store, id));
}

/** Reads an export file and saves it as a new agent. */
export async function importAgentFile(text: string): Promise<ActionResult<SavedAgent>> {
  await guardAction();
  return attempt(async () => {
    const { store } = await appContext();
    return store.createAgent(await importAgent(store, text));
  });
}
