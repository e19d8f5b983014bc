// The agent a conversation's settings ask for, on the model the configuration names. The composition root
// (lib/server/context.ts) makes the factory once with the server's configuration.
import { Assistant, FnCallAgent, ReActChat, type Agent } from '../agent';
import type { AppConfig } from '../config';
import { createChatModel } from '../llm/factory';
import { seesImages } from '../llm/vision';
import { uploadedImages } from '../documents/image-source';
import { storageRoot, type OwnerScope } from '../store/owner';
import type { ConversationSettings, DocumentStore } from '../store/types';

/** `model` overrides the model name (a replay with another model); the endpoint stays the server's. `owner`: whose
 *  run it is (the storage tool keeps each owner's keys apart). */
export type AgentFactory = (
  settings: ConversationSettings,
  overrides?: { model?: string; owner?: OwnerScope },
) => Agent;

/** `uploads`: whose uploads an owner may send as images; without it (or without an owner) only image URLs leave. */
export function agentFactory(
  config: Pick<AppConfig, 'llm' | 'maxLlmCallsPerRun' | 'dataDir'>,
  uploads?: Pick<DocumentStore, 'ownsUpload'>,
): AgentFactory {
  const { vision, ...llm } = config.llm;
  return (settings, overrides = {}) => {
    const { owner } = overrides;
    // Image parts are built from the run owner's uploads only, whatever reference a message carries.
    const images =
      owner && uploads ? uploadedImages(config.dataDir, (hash) => uploads.ownsUpload(owner, hash)) : undefined;
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
        ...(images ? { images } : {}),
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
