// The agents GET /v1/models lists, each an OpenAI "model": the builtin kinds (by id, or by Qwen-Agent's class
// name) on the server's configuration, and the agents the user saved. POST /v1/chat/completions runs the one its `model` names.
import { AGENT_KIND_NAMES, CHAT_AGENT_KINDS, type ChatAgentKind } from '../protocol/enums';
import type { OwnerScope } from '../store/owner';
import type { AgentStore, ConversationSettings } from '../store/types';

export interface ApiModel {
  /** What a caller writes as `model`. */
  id: string;
  /** Who it is (the kind's name). */
  name: string;
  /** The settings its runs start with, over the server's defaults. */
  settings: Partial<ConversationSettings>;
}

/** The owner field of GET /v1/models: this app. */
export const MODEL_OWNER = 'agent-studio';

export function builtinModels(): ApiModel[] {
  return CHAT_AGENT_KINDS.map((kind: ChatAgentKind) => ({
    id: kind,
    name: AGENT_KIND_NAMES[kind],
    settings: { agent: kind },
  }));
}

/** The builtin kinds, then the owner's saved agents (by id; by name too when `model` names one): another user's
 *  agents are not among them, so naming one answers as an unknown model. */
export async function apiModels(store: Pick<AgentStore, 'listAgents'>, owner: OwnerScope): Promise<ApiModel[]> {
  const saved = (await store.listAgents(owner)).map((a) => ({ id: a.id, name: a.name, settings: { agentId: a.id } }));
  return [...builtinModels(), ...saved];
}

/** The model a caller named, by id or by name (case aside); undefined when there is none. */
export function findModel(models: readonly ApiModel[], wanted: string): ApiModel | undefined {
  const lower = wanted.trim().toLowerCase();
  return (
    models.find((m) => m.id === wanted) ??
    models.find((m) => m.id.toLowerCase() === lower || m.name.toLowerCase() === lower)
  );
}
