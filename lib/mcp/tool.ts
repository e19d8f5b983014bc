// MCP tools as agent tools: "<server>-<tool>" with the server's input schema, plus "<server>-list_resources" and
// "<server>-read_resource" for a server with resources (Qwen-Agent's naming).
import { BaseTool, type ToolContext, type ToolOutput } from '../../tools/base-tool';
import type { McpConnection, McpToolInfo } from './connection';
import { keepReturnedImages } from './keep-images';
import { settingsOf } from '../../tools/settings';
import { callResultToOutput, readResourceToOutput } from './result';

/** Model APIs accept [A-Za-z0-9_-]{1,64} as function names. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}-${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/** The input schema as a tool schema: type object, properties, required (only names that are in properties). */
export function toolParameters(schema: Record<string, unknown>): Record<string, unknown> {
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as object) : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === 'string' && Object.hasOwn(properties, r))
    : [];
  const out: Record<string, unknown> = { type: 'object', properties, required };
  // Kept so that $ref inside properties still resolves.
  if (schema.$defs) out.$defs = schema.$defs;
  if (schema.definitions) out.definitions = schema.definitions;
  return out;
}

export abstract class McpBaseTool extends BaseTool {
  constructor(
    readonly connection: McpConnection,
    cfg?: Record<string, unknown>,
  ) {
    super(cfg);
  }
}

export class McpTool extends McpBaseTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;

  constructor(
    connection: McpConnection,
    readonly info: McpToolInfo,
    cfg?: Record<string, unknown>,
  ) {
    super(connection, cfg);
    this.name = mcpToolName(connection.name, info.name);
    this.description = info.description;
    this.parameters = toolParameters(info.inputSchema);
  }

  async call(params: string, ctx: ToolContext): Promise<ToolOutput> {
    const args = this.parseArgs(params);
    const output = callResultToOutput(await this.connection.callTool(this.info.name, args, ctx.signal));
    return keepReturnedImages(output, ctx.conversationId, settingsOf(ctx));
  }
}

export class McpListResourcesTool extends McpBaseTool {
  name: string;
  description: string;
  parameters = { type: 'object', properties: {}, required: [] };

  constructor(connection: McpConnection, cfg?: Record<string, unknown>) {
    super(connection, cfg);
    this.name = mcpToolName(connection.name, 'list_resources');
    this.description = `List the resources (uri, name, description, mime type) that MCP server ${connection.name} offers.`;
  }

  async call(_params: string, ctx: ToolContext): Promise<ToolOutput> {
    const { resources } = await this.connection.listResources(ctx.signal);
    return resources.map(({ uri, name, description, mimeType }) => ({ uri, name, description, mimeType }));
  }
}

export class McpReadResourceTool extends McpBaseTool {
  name: string;
  description: string;
  parameters = {
    type: 'object',
    properties: { uri: { type: 'string', description: 'The URI of the resource to read' } },
    required: ['uri'],
  };

  constructor(connection: McpConnection, cfg?: Record<string, unknown>) {
    super(connection, cfg);
    this.name = mcpToolName(connection.name, 'read_resource');
    const templates = connection.resourceTemplates.length
      ? ` Resource templates: ${connection.resourceTemplates.join(', ')}.`
      : '';
    this.description = `Read a resource of MCP server ${connection.name} by its URI.${templates}`;
  }

  async call(params: string, ctx: ToolContext): Promise<ToolOutput> {
    const { uri } = this.parseArgs<{ uri: string }>(params);
    return readResourceToOutput(await this.connection.readResource(uri, ctx.signal));
  }
}

/** Every tool a ready connection offers. */
export function toolsOf(connection: McpConnection): McpBaseTool[] {
  if (connection.state.status !== 'ready') return [];
  const tools: McpBaseTool[] = connection.tools.map((info) => new McpTool(connection, info));
  if (connection.hasResources) tools.push(new McpListResourcesTool(connection), new McpReadResourceTool(connection));
  return tools;
}
