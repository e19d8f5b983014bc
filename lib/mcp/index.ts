export { parseMcpConfig, writeMcpConfigFile } from './config';
export { McpConnection } from './connection';
export { McpServerDownError } from './errors';
export { McpManager } from './manager';
export type { ServerStatus } from './manager';
export { syncMcpRegistry, isMcpToolClass } from './registry';
export { toolsOf } from './tool';

import type { McpManager } from './manager';
import { TOOL_REGISTRY } from '../../tools/registry';
import { McpServerDownError } from './errors';
import { syncMcpRegistry } from './registry';

/**
 * Puts the tools of `manager`'s configured servers (the app's manager: its root made it) in this module instance's
 * TOOL_REGISTRY (Next may load the registry once per server bundle). When `needed` names a tool the registry does not
 * have yet (an MCP tool after a restart), first waits for the servers to settle, each bounded by the connect timeout,
 * and connects once more a server of those tools that could not be reached (down when the app started, or since);
 * otherwise only starts them, so a conversation without MCP tools never waits for a server. A needed tool whose
 * server still cannot be reached is McpServerDownError (503: not the caller's mistake, try again later). Returns
 * registration problems.
 */
export async function prepareMcpTools(manager: McpManager, needed?: readonly string[]): Promise<string[]> {
  const starting = manager.start();
  const missing = () => (needed ?? []).filter((name) => !TOOL_REGISTRY.has(name));
  if (!needed || missing().length) {
    await starting;
    await manager.reconnect(manager.downServersOf(missing()));
  } else void starting.then(() => syncMcpRegistry(manager.tools()));
  const problems = syncMcpRegistry(manager.tools());
  const unregistered = missing();
  const [down] = manager.downServersOf(unregistered);
  if (down)
    throw new McpServerDownError(
      down.name,
      unregistered.find((t) => t.startsWith(`${down.name}-`))!,
    );
  return problems;
}
