// The agent a conversation's settings ask for, on the model the configuration names. The composition root
// (lib/server/context.ts) makes the factory once with the server's configuration.
import { Assistant, FnCallAgent, GroupChat, ReActChat, Router, type Agent } from '../agent';
import type { AppConfig } from '../config';
import { createChatModel } from '../llm/factory';
import { storageRoot, type OwnerScope } from '../store/owner';
import type { ConversationSettings } from '../store/types';

import type { ResolvedAgent } from './saved-agents';

/** `model` overrides the model name (a replay with another model); the endpoint stays the server's. `owner`: whose
 *  run it is (the storage tool keeps each owner's keys apart). `saved`: the saved agent the settings name
 *  (settings.agentId), resolved with its members: it replaces the settings' kind, prompt, tools and call format. */
export type AgentFactory = (
  settings: ConversationSettings,
  overrides?: { model?: string; owner?: OwnerScope; saved?: ResolvedAgent },
) => Agent;

export function agentFactory(config: Pick<AppConfig, 'llm' | 'maxLlmCallsPerRun' | 'dataDir'>): AgentFactory {
  return (settings, overrides = {}) => {
    if (overrides.saved) return fromSaved(config, overrides.saved, settings, overrides);
    const Kind = settings.agent === 'react' ? ReActChat : settings.agent === 'assistant' ? Assistant : FnCallAgent;
    return new Kind({
      llm: createChatModel({
        ...config.llm,
        model: overrides.model ?? config.llm.model,
        fncallMode: settings.fncallMode,
        generateCfg: settings.generateCfg,
      }),
      maxLlmCalls: config.maxLlmCallsPerRun,
      functionList: toolList(config, settings.tools, overrides.owner),
      systemMessage: settings.systemMessage || undefined,
      name: 'assistant',
    });
  };
}

/** A saved agent as a runtime agent: a Router's or GroupChat's members built the same way. The conversation's
 *  generation settings apply over the agent's own. */
function fromSaved(
  config: Pick<AppConfig, 'llm' | 'maxLlmCallsPerRun' | 'dataDir'>,
  saved: ResolvedAgent,
  settings: ConversationSettings,
  overrides: { model?: string; owner?: OwnerScope },
): Agent {
  const { model, owner } = overrides;
  const llm = createChatModel({
    ...config.llm,
    model: model ?? config.llm.model,
    fncallMode: saved.fncallMode ?? settings.fncallMode,
    generateCfg: { ...saved.generateCfg, ...settings.generateCfg },
  });
  const common = {
    llm,
    maxLlmCalls: config.maxLlmCallsPerRun,
    functionList: toolList(config, saved.tools, owner),
    systemMessage: saved.systemMessage || undefined,
    name: saved.name,
    description: saved.description,
    agentId: saved.id,
    ...(saved.avatar ? { avatar: saved.avatar } : {}),
  };
  const members = () => saved.resolved.map((m) => fromSaved(config, m, settings, overrides));
  switch (saved.kind) {
    case 'router':
      return new Router({ ...common, agents: members() });
    case 'groupchat':
      return new GroupChat({
        ...common,
        agents: members(),
        ...(saved.selection ? { selection: saved.selection } : {}),
        ...(saved.maxRound ? { maxRound: saved.maxRound } : {}),
      });
    case 'react':
      return new ReActChat(common);
    case 'assistant':
      return new Assistant(common);
    default:
      return new FnCallAgent(common);
  }
}

/** Tool names as the agent's function list: the storage tool keeps the owner's keys under the owner's root. */
function toolList(config: Pick<AppConfig, 'dataDir'>, tools: readonly string[], owner: OwnerScope | undefined) {
  return tools.map((name) => (name === 'storage' && owner ? { name, root: storageRoot(config.dataDir, owner) } : name));
}
