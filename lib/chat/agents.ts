// The agent a conversation's settings ask for, on the model the configuration names. The composition root
// (lib/server/context.ts) makes the factory once with the server's configuration.
import { Assistant, FnCallAgent, ReActChat, type Agent } from '../agent';
import type { AppConfig } from '../config';
import { createChatModel } from '../llm/factory';
import { storageRoot, type OwnerScope } from '../store/owner';
import type { ConversationSettings } from '../store/types';

/** `model` overrides the model name (a replay with another model); the endpoint stays the server's. `owner`: whose
 *  run it is (the storage tool keeps each owner's keys apart). */
export type AgentFactory = (
  settings: ConversationSettings,
  overrides?: { model?: string; owner?: OwnerScope },
) => Agent;

export function agentFactory(config: Pick<AppConfig, 'llm' | 'maxLlmCallsPerRun' | 'dataDir'>): AgentFactory {
  return (settings, overrides = {}) => {
    const Kind = settings.agent === 'react' ? ReActChat : settings.agent === 'assistant' ? Assistant : FnCallAgent;
    return new Kind({
      llm: createChatModel({
        ...config.llm,
        model: overrides.model ?? config.llm.model,
        fncallMode: settings.fncallMode,
        generateCfg: settings.generateCfg,
      }),
      maxLlmCalls: config.maxLlmCallsPerRun,
      functionList: settings.tools.map((name) =>
        name === 'storage' && overrides.owner ? { name, root: storageRoot(config.dataDir, overrides.owner) } : name,
      ),
      systemMessage: settings.systemMessage || undefined,
      name: 'assistant',
    });
  };
}
