// Which tools an agent names that this server has none of, asked with the plugins' and MCP servers' tools in the
// registry first (the registry is this module instance's: Next may load it once per server bundle).
import { unregisteredTools } from '../chat/missing-tools';
import { prepareMcpTools } from '../mcp';
import { syncPluginTools } from '../plugins';
import { isErrorNamed } from '../protocol/errors';
import type { AppContext } from './context';

export async function toolsNotHere(
  ctx: Pick<AppContext, 'mcp' | 'plugins'>,
  agent: { kind: string; tools: readonly string[] },
): Promise<string[]> {
  if (ctx.plugins) syncPluginTools(ctx.plugins);
  if (!unregisteredTools(agent).length) return [];
  // A configured MCP server that cannot be reached now may give it: not said missing (a run says the server is down).
  await prepareMcpTools(ctx.mcp, agent.tools).catch((e: unknown) => {
    if (!isErrorNamed(e, 'McpServerDownError')) throw e;
  });
  const unknown = unregisteredTools(agent);
  const down = ctx.mcp.downServersOf(unknown);
  return unknown.filter((name) => !down.some((server) => name.startsWith(`${server.name}-`)));
}
