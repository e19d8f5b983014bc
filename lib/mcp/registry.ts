// The configured servers' tools in TOOL_REGISTRY, so a conversation's tool list can name them like any other tool.
// Run in the caller's module instance: Next may load tools/registry.ts once per server bundle.
import { TOOL_REGISTRY, registerTool, unregisterTool, type ToolClass } from '../../tools/registry';
import type { McpBaseTool } from './tool';

const MCP_CLASS = Symbol.for('agent-studio.mcp-tool-class');

export function isMcpToolClass(cls: ToolClass): boolean {
  return (cls as unknown as Record<symbol, unknown>)[MCP_CLASS] === true;
}

/** Registers each tool (replacing an earlier one of the same name) and removes MCP tools no longer offered.
 *  Returns the tools that could not be registered, with the reason (e.g. a schema ajv rejects). */
export function syncMcpRegistry(tools: readonly McpBaseTool[]): string[] {
  const wanted = new Set(tools.map((t) => t.name));
  for (const [name, cls] of TOOL_REGISTRY) if (isMcpToolClass(cls) && !wanted.has(name)) unregisterTool(name);
  const problems: string[] = [];
  for (const tool of tools) {
    const existing = TOOL_REGISTRY.get(tool.name);
    if (existing && !isMcpToolClass(existing)) {
      problems.push(`${tool.name}: a builtin tool has this name`);
      continue;
    }
    const proto = Object.getPrototypeOf(tool) as object;
    // A class bound to this very instance's connection and definition; new instances share them.
    const Bound = function (this: unknown) {
      return Object.create(proto, Object.getOwnPropertyDescriptors(tool)) as McpBaseTool;
    } as unknown as ToolClass;
    Object.defineProperty(Bound, MCP_CLASS, { value: true });
    Bound.prototype = proto;
    try {
      registerTool(tool.name, { allowOverwrite: true })(Bound as never);
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
    }
  }
  return problems;
}
