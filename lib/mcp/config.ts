// The mcpServers format shared by Qwen-Agent, Claude Desktop and LibreChat, validated with readable errors.
import { readFile, writeFile, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from '../protocol/zod';

const StringMap = z.record(z.string(), z.string());

const StdioServer = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1, 'command must not be empty'),
    args: z.array(z.string()).default([]),
    env: StringMap.optional(),
    cwd: z.string().optional(),
  })
  .passthrough();

const HttpServer = z
  .object({
    type: z.enum(['streamable-http', 'streamableHttp', 'http', 'sse']).optional(),
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
    headers: StringMap.optional(),
  })
  .passthrough();

export type StdioServerConfig = z.infer<typeof StdioServer>;
export type HttpServerConfig = z.infer<typeof HttpServer>;
export type McpServerConfig = StdioServerConfig | HttpServerConfig;
export interface McpConfig {
  mcpServers: Record<string, McpServerConfig>;
}

/** Server names become tool-name prefixes, which model APIs limit to [A-Za-z0-9_-]. */
const SERVER_NAME = /^[A-Za-z0-9_]{1,32}$/;

export class McpConfigError extends Error {
  override name = 'McpConfigError';
}

function describeIssues(name: string, error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? `${name}.${i.path.join('.')}` : name;
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

/** How a server is reached: 'stdio', 'streamable-http', 'sse', or 'http' (a bare url: streamable HTTP, then SSE). */
export function transportKind(server: McpServerConfig): 'stdio' | 'streamable-http' | 'sse' | 'auto' {
  if ('command' in server) return 'stdio';
  if (server.type === 'sse') return 'sse';
  if (server.type === 'streamable-http' || server.type === 'streamableHttp' || server.type === 'http')
    return 'streamable-http';
  return 'auto';
}

/** Validates a parsed config object; throws McpConfigError listing every problem with where it is. */
export function parseMcpConfig(value: unknown): McpConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new McpConfigError('The MCP config must be a JSON object like {"mcpServers": {...}}');
  const servers = (value as { mcpServers?: unknown }).mcpServers;
  if (servers === undefined) throw new McpConfigError('The MCP config has no "mcpServers" object');
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw new McpConfigError('"mcpServers" must be an object mapping server names to their settings');
  const problems: string[] = [];
  const out: Record<string, McpServerConfig> = {};
  for (const [name, raw] of Object.entries(servers)) {
    // A bad name is one problem among others: its settings are checked too, so that one save shows them all.
    const badName = !SERVER_NAME.test(name);
    if (badName) problems.push(`${name}: a server name may hold only letters, digits and _ (at most 32)`);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`${name}: must be an object with "command" (stdio) or "url" (HTTP)`);
      continue;
    }
    const hasCommand = 'command' in raw;
    const hasUrl = 'url' in raw;
    if (hasCommand === hasUrl) {
      problems.push(`${name}: give either "command" (a stdio server) or "url" (an HTTP server)`);
      continue;
    }
    const parsed = (hasCommand ? StdioServer : HttpServer).safeParse(raw);
    if (!parsed.success) problems.push(describeIssues(name, parsed.error));
    else if (!badName) out[name] = parsed.data;
  }
  if (problems.length) throw new McpConfigError(`Invalid MCP config: ${problems.join('; ')}`);
  return { mcpServers: out };
}

/** Parses the file's text; JSON syntax errors are reported with their position. */
export function parseMcpConfigText(text: string): McpConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new McpConfigError(`The MCP config is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseMcpConfig(value);
}

/** The config at `file`; a missing file is an empty config. */
export async function readMcpConfigFile(file: string): Promise<{ config: McpConfig; text: string; exists: boolean }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { config: { mcpServers: {} }, text: '', exists: false };
    throw e;
  }
  if (!text.trim()) return { config: { mcpServers: {} }, text, exists: true };
  return { config: parseMcpConfigText(text), text, exists: true };
}

/** Validates then writes atomically (a bad config never replaces a good one). */
export async function writeMcpConfigFile(file: string, text: string): Promise<McpConfig> {
  const config = text.trim() ? parseMcpConfigText(text) : { mcpServers: {} };
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, file);
  return config;
}
