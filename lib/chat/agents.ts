// The agent a conversation's settings ask for, on the model the configuration names. The composition root
// (lib/server/context.ts) makes the factory once with the server's configuration.
import { Assistant, FnCallAgent, ReActChat, type Agent } from '../agent';
import type { AppConfig } from '../config';
import { createChatModel } from '../llm/factory';
import { seesImages } from '../llm/vision';
import { uploadedImages } from '../documents/image-source';
import type { ConversationSettings } from '../store/types';

/** `model` overrides the model name (a replay with another model); the endpoint stays the server's. */
export type AgentFactory = (settings: ConversationSettings, overrides?: { model?: string }) => Agent;

export function agentFactory(config: Pick<AppConfig, 'llm' | 'maxLlmCallsPerRun' | 'dataDir'>): AgentFactory {
  const { vision, ...llm } = config.llm;
  const images = uploadedImages(config.dataDir);
  return (settings, overrides = {}) => {
    const Kind = settings.agent === 'react' ? ReActChat : settings.agent === 'assistant' ? Assistant : FnCallAgent;
    const model = overrides.model ?? llm.model;
    // The model layer's default name, for the name rule when the configuration names none.
    const multimodal = seesImages(model ?? 'gpt-4o-mini', vision, settings.generateCfg.multimodal);
    return new Kind({
      llm: createChatModel({
        ...llm,
        model,
        fncallMode: settings.fncallMode,
        generateCfg: { ...settings.generateCfg, multimodal },
        images,
      }),
      maxLlmCalls: config.maxLlmCallsPerRun,
      functionList: settings.tools,
      systemMessage: settings.systemMessage || undefined,
      name: 'assistant',
    });
  };
}
