'use server';
// The Agents section's server actions: list, save, delete, export and import the signed-in user's saved agents.
// Wiring only: the checks are in lib/chat/saved-agents.ts, the rows (each its owner's) in the store.
import type { ActionResult } from '@/lib/chat/page';
import {
  exportAgent,
  importAgent,
  saveAgentDefinition,
  saveImportedAgent,
  uploadedDocuments,
  type AgentExport,
  type ImportChoice,
} from '@/lib/chat/saved-agents';
import { draftGroup, saveAgentGroup as saveGroup, type GroupDraftReply } from '@/lib/chat/group-drafts';
import { callLimited } from '@/lib/http/run-limits';
import { agentLang } from '@/lib/i18n/locales';
import { checkNotPluginAgent } from '@/lib/plugins';
import { appContext } from '@/lib/server/context';
import { toolsNotHere } from '@/lib/server/tools-here';
import { currentLocale } from '@/app/i18n/locale';
import { NotFoundError } from '@/lib/store/errors';
import type { AgentDocument, SavedAgent } from '@/lib/store/types';
import { failure } from './action-error';
import { guardAction, requestLimitKey } from './guard';

async function attempt<T>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return failure(e);
  }
}

/** The user's saved agents, then the plugins' (each with its `plugin` file). */
export async function listAgents(): Promise<ActionResult<(SavedAgent & { plugin?: string })[]>> {
  const me = await guardAction('listAgents');
  return attempt(async () => (await appContext()).agents.listAgents(me.owner));
}

/** Creates the agent, or replaces the definition of the user's agent `id` (a Router's or GroupChat's members: the
 *  user's saved agents and the plugins'). The bytes of documents it let go of go too once nobody holds them. */
export async function saveAgent(id: string | undefined, definition: unknown): Promise<ActionResult<SavedAgent>> {
  const me = await guardAction('saveAgent');
  return attempt(async () => {
    checkNotPluginAgent(id);
    const { store, uploads, agents } = await appContext();
    const before = id ? await store.getAgent(me.owner, id) : undefined;
    const saved = await saveAgentDefinition(store, me.owner, id, definition, agents);
    await uploads.release(hashesOf(before).filter((h) => !hashesOf(saved).includes(h)));
    return saved;
  });
}

export async function deleteAgent(id: string): Promise<ActionResult<boolean>> {
  const me = await guardAction('deleteAgent');
  return attempt(async () => {
    checkNotPluginAgent(id);
    const { store, uploads } = await appContext();
    const agent = await store.getAgent(me.owner, id);
    if (!agent || !(await store.deleteAgent(me.owner, id))) throw new NotFoundError(`Unknown agent id "${id}".`);
    await uploads.release(hashesOf(agent));
    return true;
  });
}

/** What the user uploaded to their conversations, to give an agent as its documents. */
export async function listUploadedDocuments(): Promise<ActionResult<(AgentDocument & { conversation: string })[]>> {
  const me = await guardAction('listUploadedDocuments');
  return attempt(async () => uploadedDocuments((await appContext()).store, me.owner));
}

function hashesOf(agent: SavedAgent | undefined): string[] {
  return (agent?.documents ?? []).map((d) => d.hash);
}

export async function exportAgentFile(id: string): Promise<ActionResult<AgentExport>> {
  const me = await guardAction('exportAgentFile');
  return attempt(async () => exportAgent((await appContext()).agents, me.owner, id));
}

/** Reads an export file and saves it as an agent of the user's; says which of its documents and tools are not here
 *  (it is saved with those tools: its runs are refused, naming them, until it is edited). When one
 *  of their agents has its name, nothing is saved until `choice` says what to do (the answer names that agent). */
export async function importAgentFile(
  text: string,
  choice?: ImportChoice,
): Promise<
  ActionResult<
    | { agent: SavedAgent; missingDocuments: string[]; missingTools: string[] }
    | { conflict: { id: string; name: string } }
  >
> {
  const me = await guardAction('importAgentFile');
  return attempt(async () => {
    const ctx = await appContext();
    const { store, uploads, agents } = ctx;
    const { definition, missingDocuments, missingTools } = await importAgent(store, me.owner, text, agents, (agent) =>
      toolsNotHere(ctx, agent),
    );
    const saved = await saveImportedAgent(
      store,
      me.owner,
      definition,
      choice === 'replace' || choice === 'keep-both' ? choice : undefined,
      agents,
    );
    if ('conflict' in saved) return saved;
    // A replaced agent's documents the import does not hold go once nobody holds them (as a save does).
    await uploads.release(hashesOf(saved.replaced).filter((h) => !hashesOf(saved.agent).includes(h)));
    return { agent: saved.agent, missingDocuments, missingTools };
  });
}

/** "Create a group": one turn of the conversation with GroupChatCreator; the answer carries the group drafted so
 *  far, for the user to review. */
export async function draftAgentGroup(request: unknown): Promise<ActionResult<GroupDraftReply>> {
  const me = await guardAction('draftAgentGroup');
  const lang = agentLang(await currentLocale());
  return attempt(async () => {
    const { models, config, runLimits } = await appContext();
    return callLimited(runLimits, await requestLimitKey(me), () =>
      draftGroup({ models, config }, me.owner, request, lang),
    );
  });
}

/** Saves a reviewed group as the user's agents: each member, and the GroupChat holding them. */
export async function saveAgentGroup(
  group: unknown,
): Promise<ActionResult<{ group: SavedAgent; members: SavedAgent[] }>> {
  const me = await guardAction('saveAgentGroup');
  return attempt(async () => saveGroup((await appContext()).store, me.owner, group));
}
