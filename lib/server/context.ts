// The composition root: the configuration, the store and the services, built once per process and handed to the
// server actions and route handlers (app/), which only wire requests to them. This is where a request's user and
// the owner of what it touches will be resolved, and where a conversation's model connection is turned into a
// model (the agent factory).
import { loadConfig, type AppConfig } from '../config';
import { dropProcessWide, existingProcessWide, processWide } from '../config/process-wide';
import { mcpManager, prepareMcpTools, type McpManager } from '../mcp';
import { agentFactory, type AgentFactory } from '../chat/agents';
import { InMemoryLiveRuns, type LiveRuns } from '../chat/live-runs';
import { SharedLiveRuns } from '../chat/shared-live-runs';
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
  /** The runs in progress (they outlive a module reload in Next dev with the rest of the context): this process's
   *  own, plus, on a database several instances share, the other instances' runs. */
  runs: LiveRuns;
  chat: ChatService;
  uploads: DocumentService;
  mcp: McpManager;
  /** A new conversation's settings. */
  defaultSettings: () => ConversationSettings;
}

/** Builds the services over a store; the parts can be given (tests give their own agents). */
export function createAppContext(
  config: AppConfig,
  store: ChatStore,
  parts: { agents?: AgentFactory; runs?: LiveRuns; mcp?: McpManager } = {},
): AppContext {
  const runs = parts.runs ?? (store.runBus ? new SharedLiveRuns(store, store.runBus) : new InMemoryLiveRuns(store));
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
    agents: parts.agents ?? agentFactory(config),
    defaultSettings: settings,
    dataDir: config.dataDir,
    parses,
    // MCP tools named by a conversation must be registered before its agent is made.
    prepareTools: (names) => prepareMcpTools(names),
  });
  return { config, store, runs, chat, uploads, mcp: parts.mcp ?? mcpManager(config.mcp), defaultSettings: settings };
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
  const store = await openStore(config.dataDir, {
    defaults: defaultSettings(config.llm.fncallMode),
    databaseUrl: config.database.url,
    postgres: { poolSize: config.database.poolSize, leaseMs: config.database.leaseMs },
  });
  return createAppContext(config, store);
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
