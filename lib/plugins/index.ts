// The process's plugins (PLUGINS_DIR, and the module `npm run serve` serves), loaded once at start, and how the rest
// of the app sees them: their tools in this module instance's tool registry (Next may load the registry once per
// server bundle, as for MCP tools), their agents beside the saved ones, read-only.
import type { PluginsConfig } from '../config/plugins';
import { processWide } from '../config/process-wide';
import { NotFoundError } from '../store/errors';
import type { OwnerScope } from '../store/owner';
import type { AgentCatalog } from '../chat/saved-agents';
import type { SavedAgent } from '../store/types';
import { TOOL_REGISTRY, type ToolClass } from '../../tools/registry';
import { PLUGIN_TOOL, PluginCatalog, type PluginAgent } from './catalog';
import { isPluginAgentId } from '../chat/agent-ids';

export { PluginCatalog, PLUGIN_TOOL, type PluginAgent, type PluginError } from './catalog';
export { isPluginAgentId, pluginAgentId } from '../chat/agent-ids';

/** The process's plugins, loaded (and, in development, watched) on the first call, from where the app's root says. */
export function plugins(config: PluginsConfig): Promise<PluginCatalog> {
  return processWide('plugins', async () => {
    const catalog = new PluginCatalog(config.dir, config.serve ? [config.serve] : []);
    await catalog.load();
    if (config.watch) catalog.watch();
    return catalog;
  });
}

/** The plugin file a tool class comes from, if it is a plugin's. */
export function pluginOfTool(cls: ToolClass): string | undefined {
  return (cls as unknown as Record<symbol, string | undefined>)[PLUGIN_TOOL];
}

/** Puts the plugins' tools in this module instance's TOOL_REGISTRY, and takes out those no longer loaded. */
export function syncPluginTools(catalog: PluginCatalog): void {
  const wanted = catalog.tools();
  for (const [name, cls] of TOOL_REGISTRY)
    if (pluginOfTool(cls) && wanted.get(name) !== cls) TOOL_REGISTRY.delete(name);
  for (const [name, cls] of wanted) if (!TOOL_REGISTRY.has(name)) TOOL_REGISTRY.set(name, cls);
}

/** Saved agents and plugin agents, as one list (saved first) and one lookup: what the page lists, a conversation
 *  names, /v1 offers and a Router holds. Plugin agents cannot be changed or deleted here (their file is). */
export type { AgentCatalog };

export function withPluginAgents(store: AgentCatalog, catalog: PluginCatalog | undefined): AgentCatalog {
  if (!catalog) return store;
  return {
    async getAgent(owner: OwnerScope, id: string): Promise<SavedAgent | undefined> {
      return isPluginAgentId(id) ? catalog.agent(id) : store.getAgent(owner, id);
    },
    async listAgents(owner: OwnerScope): Promise<SavedAgent[]> {
      return [...(await store.listAgents(owner)), ...catalog.agents()];
    },
  };
}

/** Refuses to change a plugin's agent (404 as for an unknown saved agent: the store has none by that id). */
export function checkNotPluginAgent(id: string | undefined): void {
  if (id && isPluginAgentId(id))
    throw new NotFoundError(`The agent ${id} comes from code (a plugin file): change its file to change it.`);
}

export function isPluginAgent(agent: SavedAgent): agent is PluginAgent {
  return 'plugin' in agent;
}
