// Qwen-Agent's function_list: registered tool names, {name, ...cfg} objects, tool instances, and {mcpServers: ...}
// entries, whose servers are connected before the agent's first run.
import { BaseTool, checkTool, createTool, type ToolSettings } from '../../tools';
import { parseMcpConfig } from '../mcp/config';
import { loadOptional } from '../config/optional-package';

export type ToolSpec =
  string | BaseTool | ({ name: string } & Record<string, unknown>) | { mcpServers: Record<string, unknown> };

export type McpEntry = { mcpServers: Record<string, unknown> };

/** The tools of a function list, by name (a later tool with the same name replaces an earlier one, as upstream),
 *  its MCP entries, and both in the list's order (`entries`: the entries' tools take their place once connected);
 *  a tool that cannot run with `settings` (web_search without a provider) is refused. Throws on an unknown tool, a
 *  bad declaration or a bad MCP config, naming it. */
export function resolveFunctionList(
  specs: readonly ToolSpec[],
  settings?: ToolSettings,
): { tools: Map<string, BaseTool>; mcp: McpEntry[]; entries: (BaseTool | McpEntry)[] } {
  const tools = new Map<string, BaseTool>();
  const mcp: McpEntry[] = [];
  const entries: (BaseTool | McpEntry)[] = [];
  for (const spec of specs) {
    if (typeof spec === 'object' && spec !== null && 'mcpServers' in spec) {
      parseMcpConfig(spec); // a bad config fails here, with the reason; connecting waits for the first run
      mcp.push(spec as McpEntry);
      entries.push(spec as McpEntry);
      continue;
    }
    const tool =
      spec instanceof BaseTool
        ? spec
        : createTool(spec as string | ({ name: string } & Record<string, unknown>), settings);
    checkTool(tool); // class fields exist only now, after construction
    tools.set(tool.name, tool);
    entries.push(tool);
  }
  return { tools, mcp, entries };
}

/** Connects the servers of an MCP entry (shared by identical configs) with the settings' manager and returns their
 *  tools. Settings without one (a plain Node script's, a test's) get one here, made with their MCP settings and kept
 *  in them, so every agent given these settings shares it. */
export async function mcpTools(entry: McpEntry, settings: ToolSettings): Promise<BaseTool[]> {
  if (!settings.mcpServers) {
    const { McpManager } = await loadOptional(
      '@modelcontextprotocol/sdk',
      'Using MCP servers',
      () => import('../mcp/manager'),
    );
    settings.mcpServers ??= new McpManager(settings.mcp); // another agent may have made it while this one waited
  }
  return settings.mcpServers.toolsFor(entry);
}
