// The composition root: the configuration, the store and the services, built once per process and handed to the
// server actions and route handlers (app/), which only wire requests to them. This is where a request's user and
// the owner of what it touches will be resolved, and where a conversation's model connection is turned into a
// model (the agent factory). The list of models the picker shows (and an agent's model field takes) is
// `models.listModels(viewer)`.
import { loadConfig, type AppConfig } from '../config';
import { dropProcessWide, existingProcessWide, processWide } from '../config/process-wide';
import { mcpManager, prepareMcpTools, type McpManager } from '../mcp';
import { agentFactory, type AgentFactory } from '../chat/agents';
import { LocalModelFiles } from '../models/local-files';
import { installSecretBox, type SecretBox } from '../models/secret-box';
import { ModelService, type ModelViewer } from '../models/service';
import { InMemoryLiveRuns, type LiveRuns } from '../chat/live-runs';
import { ChatService } from '../chat/service';
import { openStore } from '../store';
import { defaultSettings } from '../store/settings';
import type { ChatStore, ConversationSettings } from '../store/types';
import { configureTelemetry, stopTelemetry } from '../telemetry';
import { ParseJobs } from '../uploads/parsing';
import { DocumentService } from '../uploads/service';

export interface AppContext {
  config: AppConfig;
  store: ChatStore;
  /** The runs in progress (they outlive a module reload in Next dev with the rest of the context). */
  runs: LiveRuns;
  chat: ChatService;
  uploads: DocumentService;
  mcp: McpManager;
  /** Model connections, the models to pick, the loopback scan. */
  models: ModelService;
  /** The GGUF files of the built-in local model: listed, downloaded, uploaded. */
  localModels: LocalModelFiles;
  /** Who the page acts for. Until accounts exist, the one user, who may change everything (connections they add are
   *  server-wide). This is the one place it is decided. */
  viewer: ModelViewer;
  /** A new conversation's settings. */
  defaultSettings: () => ConversationSettings;
}

/** The one user of an app without accounts (#14 replaces it with the signed-in user). */
export const LOCAL_VIEWER: ModelViewer = { ownerId: 'local', admin: true };

/** Builds the services over a store; the parts can be given (tests give their own agents). */
export function createAppContext(
  config: AppConfig,
  store: ChatStore,
  parts: { agents?: AgentFactory; runs?: LiveRuns; mcp?: McpManager; box?: SecretBox } = {},
): AppContext {
  let box = parts.box;
  const models = new ModelService({
    store,
    box: () => (box ??= installSecretBox(config.dataDir, config.models.secretKey)),
    config,
  });
  const viewer = LOCAL_VIEWER;
  const runs = parts.runs ?? new InMemoryLiveRuns(store);
  const parses = new ParseJobs();
  const settings = () => defaultSettings(config.llm.fncallMode);
  const uploads = new DocumentService(store, {
    dataDir: config.dataDir,
    limits: config.documents,
    parses,
  });
  const chat = new ChatService({
    store,
    runs,
    agents: parts.agents ?? agentFactory(config, models, viewer),
    defaultSettings: settings,
    dataDir: config.dataDir,
    parses,
    // MCP tools named by a conversation must be registered before its agent is made.
    prepareTools: (names) => prepareMcpTools(names),
  });
  return {
    config,
    store,
    runs,
    chat,
    uploads,
    mcp: parts.mcp ?? mcpManager(config.mcp),
    models,
    localModels: new LocalModelFiles(config),
    viewer,
    defaultSettings: settings,
  };
}

const CONTEXT = 'app-context';

/** The process's context, built on first use from the environment. */
export function appContext(): Promise<AppContext> {
  return processWide(CONTEXT, () =>
    build().catch((e: unknown) => {
      dropProcessWide(CONTEXT); // the next request tries again (a database that was busy, a fixed setting)
      throw e;
    }),
  );
}

async function build(): Promise<AppContext> {
  const config = loadConfig();
  configureTelemetry(config.telemetry);
  const store = await openStore(config.dataDir, { defaults: defaultSettings(config.llm.fncallMode) });
  // The key that encrypts connections' API keys is made (or read) at start, not at the first saved key.
  const ctx = createAppContext(config, store, { box: installSecretBox(config.dataDir, config.models.secretKey) });
  // Servers already running on this machine are looked for at once, so the page can offer them.
  void ctx.models.scan(ctx.viewer).catch(() => {});
  return ctx;
}

/** Closes the process's store, stops its tracing and forgets its context; the next appContext() reads the
 *  environment afresh. */
export async function closeAppContext(): Promise<void> {
  const pending = existingProcessWide<Promise<AppContext>>(CONTEXT);
  dropProcessWide(CONTEXT);
  if (!pending) return;
  await stopTelemetry();
  await (await pending).store.close();
}
