export { parseMcpConfig, writeMcpConfigFile } from './config';
export { McpConnection } from './connection';
export { McpManager } from './manager';
export type { ServerStatus } from './manager';
export { syncMcpRegistry, isMcpToolClass } from './registry';
export { toolsOf } from './tool';

import type { McpManager } from './manager';
import { TOOL_REGISTRY } from '../../tools/registry';
import { syncMcpRegistry } from './registry';

/**
 * Puts the tools of `manager`'s configured servers (the app's manager: its root made it) in this module instance's
 * TOOL_REGISTRY (Next may load the registry once per server bundle). When `needed` names a tool the registry does not have yet (an MCP tool after a restart), first
 * waits for the servers to settle, each bounded by the connect timeout; otherwise only starts them, so a
 * conversation without MCP tools never waits for a server. Returns registration problems.
 */
export async function prepareMcpTools(manager: McpManager, needed?: readonly string[]): Promise<string[]> {
  const starting = manager.start();
  if (!needed || needed.some((name) => !TOOL_REGISTRY.has(name))) await starting;
  else void starting.then(() => syncMcpRegistry(manager.tools()));
  return syncMcpRegistry(manager.tools());
}
