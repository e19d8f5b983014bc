// The composition root: the configuration (read once, lib/server/app-config.ts), the store, the accounts and the
// services, built once per process and handed to the server actions and route handlers (app/), which only wire
// requests to them. Each service gets its part of the configuration here; nothing below reads the environment
// (docs/development.md, "How configuration flows"). Here a request's user is
// resolved (`viewer`): every use case then acts for that viewer, whose owner scope is all the store lets it see.
// A conversation's model connection is turned into a model here too (the agent factory, for the conversation's
// owner). The list of models the picker shows (and an agent's model field takes) is `models.listModels(viewer)`.
import { createAuth, migrateAuth, type Auth } from '../auth/better-auth';
import { AccountService } from '../auth/accounts';
import { AdminService } from '../auth/admin';
import { ApiKeyService } from '../auth/api-keys';
import { installSecret } from '../auth/secret';
import type { AccessMode, Viewer, ViewerRefusal } from '../auth/viewer';
import type { AppConfig, TitleSetting } from '../config';
import { SetupCode, serverSetupCode } from '../config/setup-code';
import { dropProcessWide, existingProcessWide, processWide } from '../config/process-wide';
import { blobStore } from '../blob';
import { startParsePool } from '../documents/parse-pool';
import { keepSweepingAbandoned } from '../documents/storage';
import { ByteBudget, type RunLimiter } from '../http/rate-limit';
import { runLimiter } from '../http/run-limits';
import type { HeaderBag } from '../http/peer';
import { McpManager, prepareMcpTools } from '../mcp';
import { agentFactory, type AgentFactory } from '../chat/agents';
import { LocalModelFiles } from '../models/local-files';
import { removeUserData } from './user-data';
import { installSecretBox, type SecretBox } from '../models/secret-box';
import { ModelService } from '../models/service';
import { InMemoryLiveRuns, type LiveRuns } from '../chat/live-runs';
import { SharedLiveRuns } from '../chat/shared-live-runs';
import { ChatService } from '../chat/service';
import { openStore } from '../store';
import { defaultSettings } from '../protocol/conversation-settings';
import type { ChatStore, ConversationSettings } from '../store/types';
import { configureTelemetry, stopTelemetry } from '../telemetry';
import { ParseJobs } from '../uploads/parsing';
import { onShutdown } from './shutdown';
import { DocumentService } from '../uploads/service';
import { WebSearchSettings } from './web-search-settings';
import { appConfig, forgetAppConfig } from './app-config';
import { toolSettings, type ToolSettings } from '../../tools';
import {
  plugins as loadPlugins,
  syncPluginTools,
  withPluginAgents,
  type AgentCatalog,
  type PluginCatalog,
} from '../plugins';

export interface AppContext {
  config: AppConfig;
  /** single (loopback, no sign-in), token (ACCESS_TOKEN) or accounts (AUTH=required, or beyond loopback). */
  mode: AccessMode;
  store: ChatStore;
  /** The runs in progress (they outlive a module reload in Next dev with the rest of the context): this process's
   *  own, plus, on a database several instances share, the other instances' runs. */
  runs: LiveRuns;
  chat: ChatService;
  uploads: DocumentService;
  /** The MCP servers: the config file's (MCP_CONFIG, shown on the settings page) and those agents' functionLists name
   *  (the agents get it through `tools`). The context's own unless given; its maker closes it (closeAppContext does
   *  for the app's). */
  mcp: McpManager;
  /** Model connections, the models to pick, the loopback scan. */
  models: ModelService;
  /** Web search as the admin set it on the admin page (over the environment's). */
  webSearch: WebSearchSettings;
  /** What the agents' tools take from the configuration (DATA_DIR, the code sandbox and its interpreters, web search
   *  in force, the fetch policy), handed to every agent the factory makes. */
  tools: ToolSettings;
  /** Runs each client may have going and start a minute (MAX_CONCURRENT_RUNS, MAX_RUNS_PER_MINUTE). */
  runLimits: RunLimiter;
  /** The GGUF files of the built-in local model: listed, downloaded, uploaded. */
  localModels: LocalModelFiles;
  auth: Auth;
  accounts: AccountService;
  apiKeys: ApiKeyService;
  admin: AdminService;
  /** Who a request acts for (a session, an API key, or the single user), or why nobody: 401 / 403. */
  viewer: (headers: HeaderBag) => Promise<Viewer | ViewerRefusal>;
  /** A new conversation's settings. */
  defaultSettings: () => ConversationSettings;
  /** The plugins (PLUGINS_DIR), when the app loaded them. */
  plugins?: PluginCatalog;
  /** Saved agents with the plugins' agents: what the page lists, /v1 offers and a conversation may name. */
  agents: AgentCatalog;
}

export function accessMode(config: AppConfig): AccessMode {
  if (config.http.accessToken) return 'token';
  return config.http.accounts ? 'accounts' : 'single';
}

/** Builds the services over a store (the accounts' tables made or brought up to date in its database); the parts
 *  can be given (tests give their own agents). */
export async function createAppContext(
  config: AppConfig,
  store: ChatStore,
  /** `titles`: how new conversations are titled; the app passes CONVERSATION_TITLES (default: by the model), a
   *  context built for a test or a script titles by the first message unless it asks. */
  parts: {
    agents?: AgentFactory;
    runs?: LiveRuns;
    mcp?: McpManager;
    box?: SecretBox;
    titles?: TitleSetting;
    plugins?: PluginCatalog;
    /** The code the first account needs (the app: the server's, made at start); none made by default. */
    setupCode?: SetupCode;
  } = {},
): Promise<AppContext> {
  const mode = accessMode(config);
  let box = parts.box;
  const secrets = () => (box ??= installSecretBox(config.dataDir, config.models.secretKey));
  const models = new ModelService({ store, box: secrets, config });
  const runStorage = new ByteBudget(config.http.runBytesPerDay);
  const runs =
    parts.runs ??
    (store.runBus
      ? new SharedLiveRuns(store, store.runBus, runStorage)
      : new InMemoryLiveRuns(store, { storage: runStorage }));
  const parses = new ParseJobs();
  const settings = () => defaultSettings(config.llm.fncallMode, { toolImages: config.llm.toolImages });
  // Uploads, parses and work files: DATA_DIR, or the S3 bucket (found by DATA_DIR from now on).
  blobStore(config);
  const uploads = new DocumentService(store, {
    dataDir: config.dataDir,
    limits: config.documents,
    images: config.images,
    parses,
    budget: new ByteBudget(config.http.uploadBytesPerDay),
  });
  // Upload bytes and parses a killed process was writing are deleted once nothing writes to them any more.
  keepSweepingAbandoned(config.dataDir);
  const webSearch = new WebSearchSettings({ store, box: secrets, env: config.web });
  const mcp = parts.mcp ?? new McpManager(config.mcp);
  const tools = toolSettings(config, { webSearch: () => webSearch.current(), mcpServers: mcp });
  const agents = withPluginAgents(store, parts.plugins);
  const plugins = parts.plugins;
  const chat = new ChatService({
    store,
    runs,
    runStorage,
    agents: parts.agents ?? agentFactory(config, models, tools, store),
    agentCatalog: agents,
    defaultSettings: settings,
    dataDir: config.dataDir,
    images: config.images,
    parses,
    // MCP and plugin tools named by a conversation must be registered (in this module instance) before its agent
    // is made.
    prepareTools: (names) => {
      if (plugins) syncPluginTools(plugins);
      return prepareMcpTools(mcp, names);
    },
    titles: parts.titles ?? 'message',
  });
  const apiKeys = new ApiKeyService(store);
  const auth = createAuth({
    database: store.authDatabase,
    secret: installSecret(config.dataDir, config.auth.secret),
    publicOrigin: config.http.publicOrigin,
    oidc: config.auth.oidc,
    // Called on requests only, once `accounts` (which needs `auth`) exists.
    gate: { external: (email) => accounts.allowExternalSignUp(email) },
  });
  await migrateAuth(auth);
  const accounts = new AccountService({
    store,
    auth,
    apiKeys,
    dataDir: config.dataDir,
    mode: () => mode,
    oidcOpenSignUp: config.auth.oidc?.openSignUp,
    setupCode: parts.setupCode ?? new SetupCode(),
  });
  await accounts.adoptLocalDataIfAdmin();
  return {
    config,
    mode,
    store,
    runs,
    chat,
    uploads,
    mcp,
    models,
    webSearch,
    tools,
    runLimits: runLimiter(config.http),
    localModels: new LocalModelFiles(config),
    auth,
    accounts,
    apiKeys,
    admin: new AdminService({
      store,
      auth,
      apiKeys,
      removeData: (owner) => removeUserData({ store, runs, uploads, dataDir: config.dataDir }, owner),
    }),
    viewer: (headers) => accounts.viewer(headers),
    defaultSettings: settings,
    ...(plugins ? { plugins } : {}),
    agents,
  };
}

const CONTEXT = 'app-context';

/** The process's context, built on first use from the process's configuration. Held process-wide, so a module reload
 *  in Next dev finds it with everything it made: the store, the runs in progress, the MCP manager (whose stdio
 *  servers must not be spawned twice), the sandbox pool. */
export function appContext(): Promise<AppContext> {
  return processWide(CONTEXT, () =>
    build().catch((e: unknown) => {
      // The next request tries again, with the environment read afresh (a database that was busy, a fixed setting).
      dropProcessWide(CONTEXT);
      forgetAppConfig();
      throw e;
    }),
  );
}

async function build(): Promise<AppContext> {
  const config = appConfig();
  configureTelemetry(config.telemetry);
  startParsePool(config.documentParseWorkers);
  const store = await openStore(config.dataDir, {
    defaults: defaultSettings(config.llm.fncallMode, { toolImages: config.llm.toolImages }),
    databaseUrl: config.database.url,
    postgres: { poolSize: config.database.poolSize, leaseMs: config.database.leaseMs },
  });
  try {
    // The key that encrypts connections' API keys is made (or read) at start, not at the first saved key.
    const ctx = await createAppContext(config, store, {
      box: installSecretBox(config.dataDir, config.models.secretKey),
      titles: config.llm.titles,
      // The plugins folder's modules, loaded before the first request (a broken one is logged and listed).
      plugins: await loadPlugins(config.plugins),
      // The code the start-up hook printed, if it made one (lib/http/startup.ts).
      setupCode: serverSetupCode(),
    });
    // Servers already running on this machine are looked for at once, so the page can offer them.
    void ctx.models.startScan().catch(() => {});
    // Web search as the admin set it on the admin page, if they did.
    await ctx.webSearch.apply().catch(() => {});
    // SIGTERM / SIGINT: this process's runs are marked interrupted at once (lib/server/shutdown.ts).
    onShutdown({ interruptRuns: () => ctx.runs.interruptAll(), release: async () => store.runBus?.releaseAll() });
    return ctx;
  } catch (e) {
    await store.close();
    throw e;
  }
}

/** Closes the process's store, stops its tracing, its interpreters and its MCP servers and forgets its context; the
 *  next appContext() reads the environment afresh. */
export async function closeAppContext(): Promise<void> {
  const pending = existingProcessWide<Promise<AppContext>>(CONTEXT);
  dropProcessWide(CONTEXT);
  forgetAppConfig();
  if (!pending) return;
  await stopTelemetry();
  const ctx = await pending;
  ctx.tools.sandbox.shutdown();
  await ctx.mcp.closeAll();
  await ctx.store.close();
}
