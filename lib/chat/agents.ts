// The agent a conversation's settings ask for, on the conversation's model (an id from the model list: its
// connection and name, lib/models). The composition root (lib/server/context.ts) makes the factory once.
//
// What the model can do decides how it is called: tools through the tools API when it takes them (a server that
// answers 400 to them gets them in the text once, and is remembered), else in the text (nous, as Qwen-Agent does for
// Qwen-family models); images sent as image parts when it can see them.
import {
  ArticleAgent,
  Assistant,
  BasicDocQA,
  FnCallAgent,
  GroupChat,
  MemoAssistant,
  ParallelDocQA,
  ReActChat,
  Router,
  TIRMathAgent,
  VirtualMemoryAgent,
  type Agent,
  type AgentOptions,
  type ToolSpec,
} from '../agent';
import { TIR_MAX_LLM_CALLS } from '../agent/tir-agent';
import { PYTHON_EXECUTOR } from '../../tools/python-executor';
import type { AppConfig, VisionSetting } from '../config';
import { createChatModel } from '../llm/factory';
import type { ImageEndpoint } from '../llm/images';
import type { ChatModel, GenerateCfg } from '../llm/model';
import { ToolFallbackModel } from '../llm/tool-fallback';
import { ModelRequestError, type ModelService, type ResolvedModel } from '../models/service';
import type { ChatAgentKind, FncallMode } from '../protocol/enums';
import type { ImageResolver } from '../llm/image-data';
import { seesImages } from '../llm/vision';
import { storageRoot, type OwnerScope } from '../store/owner';
import type { ChatStore, ConversationSettings } from '../store/types';
import { modelImages } from '../uploads/model-images';

import { documentRef } from '../store/documents';
import { DOCUMENT_TOOLS } from './document-tools';
import type { ResolvedAgent } from './saved-agents';
import type { ToolSettings } from '../../tools';

/** `model` overrides the model name on the conversation's connection (a replay with another model). `owner`: whose
 *  run it is: the connections it may use are theirs and the server-wide ones, and the storage tool keeps each
 *  owner's keys apart. `saved`: the saved agent the settings name (settings.agentId), resolved with its members: it
 *  replaces the settings' kind, prompt, tools and call format. `callsBefore`: the model calls of the run a new one
 *  continues (Continue after the limit): it may make the limit's worth more. */
export type AgentFactory = (
  settings: ConversationSettings,
  overrides: { model?: string; owner: OwnerScope; saved?: ResolvedAgent; callsBefore?: number },
) => Agent | Promise<Agent>;

/** `tools`: what every agent's tools take from the configuration (tools/settings.ts). `uploads`: whose uploads and
 *  conversations an owner may send images of; without it only image URLs leave. */
export function agentFactory(
  config: Pick<AppConfig, 'llm' | 'maxLlmCallsPerRun' | 'dataDir' | 'images'>,
  models: ModelService,
  tools: ToolSettings,
  uploads?: Pick<ChatStore, 'ownsUpload' | 'getConversation'>,
): AgentFactory {
  return async (settings, overrides) => {
    const { owner, saved } = overrides;
    // RECORD_RAW_STREAM, or the conversation's switch: each model call keeps the provider's SSE chunks.
    const record = config.llm.recordRawStream || settings.recordRawStream === true;
    // A saved agent's own model, unless the conversation picked another (the page's picker).
    const resolved = await models.resolve(owner, settings.model ?? saved?.model, overrides.model);
    // Image parts are built from the run owner's uploads and conversations only, whatever a message refers to.
    const images = uploads ? modelImages(config.dataDir, uploads, owner, config.images) : undefined;
    // image_gen makes images at the owner's connection that has an images endpoint (the conversation's first).
    let endpoint: Promise<ImageEndpoint | undefined> | undefined;
    const imageEndpoint = () => (endpoint ??= models.imageEndpoint(owner, resolved.connectionId));
    if (saved)
      return fromSaved(config, saved, settings, {
        owner,
        resolved,
        images,
        record,
        models,
        tools,
        imageEndpoint,
        callsBefore: overrides.callsBefore,
      });
    return agentOfKind(settings.agent, {
      llm: modelFor(resolved, settings, { vision: config.llm.vision, images, record }),
      maxLlmCalls: config.maxLlmCallsPerRun + (overrides.callsBefore ?? 0),
      functionList: await toolList(config, toolsOfKind(settings.agent, settings.tools), owner, imageEndpoint),
      toolSettings: tools,
      systemMessage: settings.systemMessage || undefined,
      name: 'assistant',
    });
  };
}

/** The conversation's model, called the way it can be. */
export function modelFor(
  resolved: ResolvedModel,
  settings: Pick<ConversationSettings, 'fncallMode' | 'generateCfg'>,
  opts: { vision?: VisionSetting; images?: ImageResolver; record?: boolean } = {},
): ChatModel {
  const { capabilities } = resolved;
  const generateCfg: GenerateCfg = { ...settings.generateCfg };
  // A user's settings may ask for fewer retries than the server's LLM_MAX_RETRIES, never more: each retry is one more
  // request on the connection's key and one more event in the run's log, so the server's owner sets the most.
  if (typeof generateCfg.max_retries === 'number')
    generateCfg.max_retries = Math.max(0, Math.min(generateCfg.max_retries, resolved.config.maxRetries ?? 0));
  // n answers per call are n answers paid for on the connection's key, and a run reads one (as /v1 refuses n > 1).
  if (generateCfg.n !== undefined && generateCfg.n !== 1)
    throw new ModelRequestError(
      'generate_cfg.n must be 1: an agent run reads one answer per model call (remove n from the settings).',
    );
  // An explicit generate_cfg.multimodal wins, then MODEL_VISION, then the connection's capability.
  generateCfg.multimodal = seesImages(capabilities.vision.value, opts.vision ?? 'auto', generateCfg.multimodal);
  if (opts.record) generateCfg.record_raw_stream = true;
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

/** A saved agent as a runtime agent: a Router's or GroupChat's members built the same way (each on its own model
 *  when it has one, else on the one above it). The conversation's generation settings apply over the agent's own.
 *  Its documents are the agent's files (Qwen-Agent's system files): an Assistant searches them before each answer,
 *  the other kinds get the document tools to read them. */
async function fromSaved(
  config: Pick<AppConfig, 'llm' | 'maxLlmCallsPerRun' | 'dataDir'>,
  saved: ResolvedAgent,
  settings: ConversationSettings,
  run: {
    owner: OwnerScope;
    resolved: ResolvedModel;
    images?: ImageResolver;
    record?: boolean;
    models: ModelService;
    tools: ToolSettings;
    imageEndpoint: () => Promise<ImageEndpoint | undefined>;
    callsBefore?: number;
  },
): Promise<Agent> {
  const { owner, resolved, images, record } = run;
  const llm = modelFor(
    resolved,
    {
      fncallMode: saved.fncallMode ?? settings.fncallMode,
      generateCfg: { ...saved.generateCfg, ...settings.generateCfg },
    },
    { vision: config.llm.vision, images, record },
  );
  const files = (saved.documents ?? []).map((d) => documentRef(d.hash, d.name));
  const searches = SEARCH_DOCUMENTS_FIRST.has(saved.kind);
  const own = toolsOfKind(saved.kind, saved.tools);
  const tools = files.length && !searches && saved.kind !== 'tir' ? [...new Set([...own, ...DOCUMENT_TOOLS])] : own;
  // The document tools take file names: the model is told the agent's, as each run names them (an upload of the
  // conversation may have taken a document's name first); an Assistant searches them by itself.
  const filesNote =
    files.length && tools.includes('retrieval') && !searches
      ? (links: string) => `Your documents: ${links}. Search them with the retrieval tool.`
      : undefined;
  const common = {
    llm,
    maxLlmCalls: config.maxLlmCallsPerRun + (run.callsBefore ?? 0),
    functionList: await toolList(config, tools, owner, run.imageEndpoint),
    toolSettings: run.tools,
    ...(files.length ? { files } : {}),
    ...(filesNote ? { filesNote } : {}),
    systemMessage: saved.systemMessage || undefined,
    name: saved.name,
    description: saved.description,
    agentId: saved.id,
    ...(saved.avatar ? { avatar: saved.avatar } : {}),
  };
  const members = () =>
    Promise.all(
      saved.resolved.map(async (m) =>
        fromSaved(config, m, settings, {
          ...run,
          resolved: m.model ? await run.models.resolve(owner, m.model) : resolved,
        }),
      ),
    );
  switch (saved.kind) {
    case 'router':
      return new Router({ ...common, agents: await members() });
    case 'groupchat':
      return new GroupChat({
        ...common,
        agents: await members(),
        ...(saved.selection ? { selection: saved.selection } : {}),
        ...(saved.maxRound ? { maxRound: saved.maxRound } : {}),
      });
    default:
      return agentOfKind(saved.kind, common);
  }
}

/** Kinds that search the documents themselves before they answer (the Assistants; a Router as its helpers' host;
 *  the doc-QA agents, which read them). */
const SEARCH_DOCUMENTS_FIRST: ReadonlySet<string> = new Set([
  'assistant',
  'router',
  'memo',
  'article',
  'basicdocqa',
  'paralleldocqa',
]);

/** An agent of one of the kinds that hold no other agents. TIRMathAgent runs python_executor only, within its own
 *  (lower) model-call limit; the doc-QA agents offer no tools (as upstream's, which never call them). */
function agentOfKind(kind: ChatAgentKind, opts: AgentOptions): Agent {
  switch (kind) {
    case 'react':
      return new ReActChat(opts);
    case 'assistant':
      return new Assistant(opts);
    case 'virtualmemory':
      return new VirtualMemoryAgent(opts);
    case 'memo':
      return new MemoAssistant(opts);
    case 'article':
      return new ArticleAgent(opts);
    case 'tir': {
      const { functionList: _tools, maxLlmCalls, ...rest } = opts;
      return new TIRMathAgent({ ...rest, maxLlmCalls: Math.min(TIR_MAX_LLM_CALLS, maxLlmCalls ?? TIR_MAX_LLM_CALLS) });
    }
    case 'basicdocqa': {
      const { functionList: _tools, ...rest } = opts;
      return new BasicDocQA(rest);
    }
    case 'paralleldocqa': {
      const { functionList: _tools, ...rest } = opts;
      return new ParallelDocQA(rest);
    }
    default:
      return new FnCallAgent(opts);
  }
}

/** The tools an agent of this kind can run, whatever it was given: what the admin's tool gate checks
 *  (lib/chat/service.ts). TIRMathAgent runs python_executor and nothing else. */
export function toolsRunBy(kind: string, tools: readonly string[]): readonly string[] {
  return kind === 'tir' ? [PYTHON_EXECUTOR] : toolsOfKind(kind, tools);
}

/** The tools a kind runs with: a MemoAssistant always has storage (given here, so it keeps the owner's keys apart). */
function toolsOfKind(kind: string, tools: readonly string[]): readonly string[] {
  return kind === 'memo' && !tools.includes('storage') ? ['storage', ...tools] : tools;
}

/** Tool names as the agent's function list: the storage tool keeps the owner's keys under the owner's root;
 *  image_gen is given the owner's images endpoint, or none (it then says so when called). */
async function toolList(
  config: Pick<AppConfig, 'dataDir'>,
  tools: readonly string[],
  owner: OwnerScope,
  imageEndpoint: () => Promise<ImageEndpoint | undefined>,
): Promise<ToolSpec[]> {
  const endpoint = tools.includes('image_gen') ? await imageEndpoint() : undefined;
  return tools.map((name) =>
    name === 'storage'
      ? { name, root: storageRoot(config.dataDir, owner) }
      : name === 'image_gen'
        ? { name, endpoint }
        : name,
  );
}
