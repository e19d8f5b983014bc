// The agent a conversation's settings ask for, on the conversation's model (an id from the model list: its
// connection and name, lib/models). The composition root (lib/server/context.ts) makes the factory once.
//
// What the model can do decides how it is called: tools through the tools API when it takes them (a server that
// answers 400 to them gets them in the text once, and is remembered), else in the text (nous, as Qwen-Agent does for
// Qwen-family models); images sent as image parts when it can see them.
import { Assistant, FnCallAgent, ReActChat, type Agent } from '../agent';
import type { AppConfig, VisionSetting } from '../config';
import { createChatModel } from '../llm/factory';
import type { ChatModel, GenerateCfg } from '../llm/model';
import { ToolFallbackModel } from '../llm/tool-fallback';
import type { ModelService, ResolvedModel } from '../models/service';
import type { FncallMode } from '../protocol/enums';
import type { ImageResolver } from '../llm/image-data';
import { seesImages } from '../llm/vision';
import { uploadedImages } from '../documents/image-source';
import { storageRoot, type OwnerScope } from '../store/owner';
import type { ConversationSettings, DocumentStore } from '../store/types';

/** `model` overrides the model name on the conversation's connection (a replay with another model). `owner`: whose
 *  run it is: the connections it may use are theirs and the server-wide ones, and the storage tool keeps each
 *  owner's keys apart. */
export type AgentFactory = (
  settings: ConversationSettings,
  overrides: { model?: string; owner: OwnerScope },
) => Agent | Promise<Agent>;

/** `uploads`: whose uploads an owner may send as images; without it only image URLs leave. */
export function agentFactory(
  config: Pick<AppConfig, 'llm' | 'maxLlmCallsPerRun' | 'dataDir'>,
  models: ModelService,
  uploads?: Pick<DocumentStore, 'ownsUpload'>,
): AgentFactory {
  return async (settings, overrides) => {
    const { owner } = overrides;
    const resolved = await models.resolve(owner, settings.model, overrides.model);
    // Image parts are built from the run owner's uploads only, whatever reference a message carries.
    const images = uploads ? uploadedImages(config.dataDir, (hash) => uploads.ownsUpload(owner, hash)) : undefined;
    const Kind = settings.agent === 'react' ? ReActChat : settings.agent === 'assistant' ? Assistant : FnCallAgent;
    return new Kind({
      llm: modelFor(resolved, settings, { vision: config.llm.vision, images }),
      maxLlmCalls: config.maxLlmCallsPerRun,
      functionList: settings.tools.map((name) =>
        name === 'storage' ? { name, root: storageRoot(config.dataDir, overrides.owner) } : name,
      ),
      systemMessage: settings.systemMessage || undefined,
      name: 'assistant',
    });
  };
}

/** The conversation's model, called the way it can be. */
export function modelFor(
  resolved: ResolvedModel,
  settings: Pick<ConversationSettings, 'fncallMode' | 'generateCfg'>,
  opts: { vision?: VisionSetting; images?: ImageResolver } = {},
): ChatModel {
  const { capabilities } = resolved;
  const generateCfg: GenerateCfg = { ...settings.generateCfg };
  // An explicit generate_cfg.multimodal wins, then MODEL_VISION, then the connection's capability.
  generateCfg.multimodal = seesImages(capabilities.vision.value, opts.vision ?? 'auto', generateCfg.multimodal);
  // 'native' means "the tools API when the model takes it"; nous and qwen are the user's explicit choice.
  const fncallMode: FncallMode =
    settings.fncallMode === 'native' && !capabilities.tools.value ? 'nous' : settings.fncallMode;
  const build = (mode: FncallMode) =>
    createChatModel({
      ...resolved.config,
      fncallMode: mode,
      generateCfg,
      ...(opts.images ? { images: opts.images } : {}),
    });
  const model = build(fncallMode);
  // A server's word (its model list, or a refusal it gave before) is trusted; otherwise a refusal is learnt.
  if (fncallMode !== 'native' || resolved.local || capabilities.tools.source !== 'default') return model;
  return new ToolFallbackModel(model, {
    text: () => build('nous'),
    onRefused: () => void resolved.learnToolsRefused().catch(() => {}),
  });
}
