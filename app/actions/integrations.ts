'use server';
// Server actions for the settings page's MCP servers and web tools. Wiring only: the work is in lib/mcp and tools/.
import { loadConfig } from '@/lib/config';
import { mcpManager, prepareMcpTools, writeMcpConfigFile, type ServerStatus } from '@/lib/mcp';
import { readFile } from 'node:fs/promises';
import type { ErrorCode } from './action-error';

export interface IntegrationsStatus {
  mcp: {
    configPath: string;
    /** The config file is being read and its servers connected. */
    busy: boolean;
    /** The file is invalid (the servers already running keep running). */
    configError: string | null;
    /** MCP_CONFIG_EDITABLE=1: the file (which may hold secrets) can be read and saved from the page. */
    editable: boolean;
    /** Names, transports, states and tool names only: never a header or env value. */
    servers: ServerStatus[];
    problems: string[];
  };
  /** `problem`: what is wrong with the web search settings, when they are set but invalid (the server's words). */
  webSearch: { enabled: boolean; provider: string | null; problem: string | null };
}

function snapshot(problems: string[]): IntegrationsStatus {
  const config = loadConfig();
  const manager = mcpManager();
  const search = config.web.search;
  return {
    mcp: {
      configPath: config.mcp.configPath,
      busy: manager.busy,
      configError: manager.configError ?? null,
      editable: config.mcp.editable,
      servers: manager.status(),
      problems,
    },
    webSearch: {
      enabled: Boolean(search),
      provider: search?.provider ?? null,
      problem: search ? null : (config.web.searchProblem ?? null),
    },
  };
}

/** The servers' states as they are now; `wait` waits for connecting servers to settle first. */
export async function integrationsStatus(wait = false): Promise<IntegrationsStatus> {
  const ready = prepareMcpTools();
  const problems = wait ? await ready : [];
  return snapshot(problems);
}

export type ConfigFileResult = { ok: true; text: string } | { ok: false; error: string; code?: ErrorCode };

const NOT_EDITABLE = {
  ok: false,
  error: 'Editing the MCP config from the page is off (set MCP_CONFIG_EDITABLE=1 to allow it).',
  code: 'mcp-not-editable',
} as const;

export async function readMcpConfigText(): Promise<ConfigFileResult> {
  const config = loadConfig();
  if (!config.mcp.editable) return NOT_EDITABLE;
  try {
    // Read as text, not parsed: an invalid file is still shown, so that it can be fixed.
    const text = await readFile(config.mcp.configPath, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return '';
      throw e;
    });
    return { ok: true, text: text || '{\n  "mcpServers": {}\n}\n' };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Validates and saves the file, then reconnects the servers. Nothing is written when the text is invalid. */
export async function saveMcpConfigText(
  text: string,
): Promise<{ ok: true; status: IntegrationsStatus } | { ok: false; error: string; code?: ErrorCode }> {
  const config = loadConfig();
  if (!config.mcp.editable) return NOT_EDITABLE;
  try {
    await writeMcpConfigFile(config.mcp.configPath, text);
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const manager = mcpManager();
  await manager.start();
  await manager.reload();
  return { ok: true, status: await integrationsStatus(true) };
}
