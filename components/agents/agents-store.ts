'use client';
// The saved agents the page lists (the Agents section of the left column), kept in step with the server.
import { create } from 'zustand';
import * as actions from '@/app/actions/agents';
import type { ActionFailure, PluginFailure } from '@/lib/chat/page';
import type { ImportChoice } from '@/lib/chat/saved-agents';
import type { AgentDefinition, SavedAgent } from '@/lib/store/types';
import { reachServer } from '../chat/reach-server';
import { failureText, type CodedText } from '../chat/server-text';

/** A listed agent: a saved one, or a plugin's (`plugin`: its file; it is changed there, not here). */
export type ListedAgent = SavedAgent & { plugin?: string };

/** Why an agent was not saved: the server's words, the field at fault, and the code the page says them by. */
export type AgentRefusal = Pick<ActionFailure, 'error' | 'field'> & Omit<CodedText, 'message'>;

/** A request the server never answered is said in the page's own words ("Could not reach the server"), not the
 *  browser's. */
export function refusalOf(failure: ActionFailure): AgentRefusal {
  const { field } = failure;
  const { message, code, values } = failureText(failure);
  return {
    error: message ?? '',
    ...(field ? { field } : {}),
    ...(code ? { code } : {}),
    ...(values ? { values } : {}),
  };
}

interface AgentsState {
  agents: ListedAgent[];
  /** Whether `agents` holds the server's list yet (until then no member can be said to be gone). */
  loaded: boolean;
  /** Plugins that failed to load (shown to the admin). */
  pluginFailures: PluginFailure[];
  /** The agent being edited: a saved one, or a new definition (create, duplicate). */
  editing?: { id?: string; definition: AgentDefinition };
  refresh(): Promise<void>;
  /** Resolves with the error (and the field at fault), if the server refused it. */
  save(id: string | undefined, definition: AgentDefinition): Promise<AgentRefusal | undefined>;
  /** Resolves with the refusal, if the server refused it. */
  remove(id: string): Promise<AgentRefusal | undefined>;
  /** Resolves with the refusal, with the agent whose name the import has (nothing saved: ask what to do, then call
   *  again with the choice), or with the name saved and the names of the file's documents and tools that are not
   *  here. */
  importFile(
    text: string,
    choice?: ImportChoice,
  ): Promise<
    | { refused: AgentRefusal }
    | { conflict: { id: string; name: string } }
    | { name: string; missingDocuments: string[]; missingTools: string[] }
  >;
  edit(editing: AgentsState['editing']): void;
}

export const useAgents = create<AgentsState>()((set, get) => ({
  agents: [],
  loaded: false,
  pluginFailures: [],
  async refresh() {
    // Unanswered (the server down for a moment), the list stays as it was.
    const result = await actions.listAgents().catch(() => undefined);
    if (result?.ok) set({ agents: result.value, loaded: true });
  },
  async save(id, definition) {
    const result = await reachServer(() => actions.saveAgent(id, definition));
    if (!result.ok) return refusalOf(result);
    set({ editing: undefined });
    await get().refresh();
    return undefined;
  },
  async remove(id) {
    const result = await reachServer(() => actions.deleteAgent(id));
    await get().refresh();
    return result.ok ? undefined : refusalOf(result);
  },
  async importFile(text, choice) {
    const result = await actions.importAgentFile(text, choice);
    if (!result.ok) return { refused: refusalOf(result) };
    if ('conflict' in result.value) return { conflict: result.value.conflict };
    await get().refresh();
    const { agent, missingDocuments, missingTools } = result.value;
    return { name: agent.name, missingDocuments, missingTools };
  },
  edit(editing) {
    set({ editing });
  },
}));

export function blankAgent(): AgentDefinition {
  return {
    name: '',
    description: '',
    avatar: '🤖',
    kind: 'fncall',
    systemMessage: '',
    tools: [],
    generateCfg: {},
    suggestions: [],
    members: [],
  };
}

/** A saved agent's definition, without its id and times. */
export function definitionOf(agent: ListedAgent): AgentDefinition {
  const { id: _id, createdAt: _c, updatedAt: _u, plugin: _p, ...definition } = agent;
  return definition;
}
