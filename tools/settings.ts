// What the tools (and the agents that search documents themselves) take from the configuration. Nothing else in the
// tool layer reads the environment: a composition root makes these once from its configuration (`toolSettings(config)`)
// and hands them to the agents it makes (AgentOptions.toolSettings), which pass them to every tool call
// (ToolContext.settings). An agent or a tool given none (the core used from a plain Node script, a tool called by
// hand) gets `defaultToolSettings()`: the environment's, read once by that script's process.
import { loadConfig, type AppConfig, type WebSearchState } from '../lib/config';
import type { McpServers, ToolSettings } from './base-tool';
import { CodeSandbox } from './code-sandbox';

export type { McpServers, ToolSettings } from './base-tool';

/** The settings of a configuration. `webSearch` replaces the environment's (the app: the admin page's setting);
 *  `mcpServers`: the root's MCP manager. */
export function toolSettings(
  config: Pick<AppConfig, 'dataDir' | 'rag' | 'documents' | 'images' | 'codeInterpreter' | 'web' | 'mcp' | 'llm'>,
  opts: { webSearch?: () => WebSearchState; allowLocalPaths?: boolean; mcpServers?: McpServers } = {},
): ToolSettings {
  const { search, searchProblem } = config.web;
  const fromConfig: WebSearchState = { ...(search ? { search } : {}), ...(searchProblem ? { searchProblem } : {}) };
  return {
    dataDir: config.dataDir,
    rag: config.rag,
    documents: config.documents,
    images: config.images,
    sandbox: new CodeSandbox(config.codeInterpreter),
    webFetch: config.web.fetch,
    mcp: config.mcp,
    ...(opts.mcpServers ? { mcpServers: opts.mcpServers } : {}),
    ...(config.web.amap ? { amap: config.web.amap } : {}),
    ...(config.web.imageSearch ? { imageSearch: config.web.imageSearch } : {}),
    imageModel: { baseURL: config.llm.baseURL, apiKey: config.llm.apiKey, imageModel: config.llm.imageModel },
    webSearch: opts.webSearch ?? (() => fromConfig),
    allowLocalPaths: opts.allowLocalPaths ?? false,
  };
}

let defaults: ToolSettings | undefined;

/**
 * The settings of agents and tools given none: the core used from a plain Node script (examples/, a plugin), whose
 * process has no other composition root. Read from the environment once, on first use, as Qwen-Agent's settings.py
 * reads its variables; made once (one sandbox pool, one MCP manager once an agent needs it). The app never falls
 * back to them: its root passes its own.
 */
export function defaultToolSettings(): ToolSettings {
  return (defaults ??= toolSettings(loadConfig()));
}

/** Where agents and tools given no settings keep files (DATA_DIR of the environment, default ./data). */
export function dataDir(): string {
  return defaultToolSettings().dataDir;
}

/** A call's settings: the context's, else the defaults. */
export function settingsOf(ctx: { settings?: ToolSettings } | undefined): ToolSettings {
  return ctx?.settings ?? defaultToolSettings();
}
