// Where a tool that a list names (an agent's, a conversation's own) stands on this server, for the page to say beside
// it. The server may have it but not offer it now (web_search without a provider, an MCP server that is down): a
// run of it is refused until that changes, so it is "not available now", with why. Or nothing here gives it (no
// builtin tool, plugin or configured MCP server; the list was made on another server, or before a plugin or an MCP
// server was removed): a run of it is refused until it is unticked, so it is "not on this server".
import type { AppInfo, NotOfferedTool } from './page';

/** An MCP server as the integrations status tells it (lib/mcp ServerStatus): its state and the tools it lists. */
export interface McpServerListing {
  name: string;
  state: { status: string };
  tools: readonly { name: string }[];
}

export type ToolStanding =
  | { kind: 'offered' }
  /** The server has it and says why it cannot run now. */
  | { kind: 'not-offered'; tool: NotOfferedTool }
  /** An MCP server configured here gives tools of this name, but is not ready (connecting, failed, closed). */
  | { kind: 'mcp-not-ready'; server: string; connecting: boolean }
  | { kind: 'not-here' };

/** Where `name` stands, told by what the page knows: the tools offered and not offered, and the MCP servers. MCP tools
 *  are named `<server>-<tool>` (lib/mcp/registry.ts), which tells a down server's tools apart. */
export function toolStanding(
  name: string,
  info: Pick<AppInfo, 'tools' | 'notOffered'>,
  mcpServers: readonly McpServerListing[],
): ToolStanding {
  if (info.tools.some((tool) => tool.name === name)) return { kind: 'offered' };
  const notOffered = info.notOffered.find((tool) => tool.name === name);
  if (notOffered) return { kind: 'not-offered', tool: notOffered };
  const server = mcpServers.find((s) => name.startsWith(`${s.name}-`));
  if (server?.tools.some((tool) => tool.name === name)) return { kind: 'offered' };
  // A ready server that does not list it has no such tool; one not ready may give it once it is up.
  if (server && server.state.status !== 'ready')
    return { kind: 'mcp-not-ready', server: server.name, connecting: server.state.status === 'connecting' };
  return { kind: 'not-here' };
}
