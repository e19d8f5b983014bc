// The settings page's MCP servers and web tools: their state, and the MCP config file (read and saved only when
// the server allows it, since it may hold secrets, and only by the admin: with accounts on, saving asks for the
// admin's password again, since the file starts programs on the server).
import { readFile } from 'node:fs/promises';
import type { HeaderBag } from '../http/peer';
import { prepareMcpTools, writeMcpConfigFile, type ServerStatus } from '../mcp';
import type { Viewer } from '../auth/viewer';
import type { ActionFailure } from '../chat/page';
import { isErrorNamed } from '../protocol/errors';
import type { AppContext } from './context';

export interface IntegrationsStatus {
  /** The viewer is the admin: the server's paths, variables and error details below are theirs only (for anyone
   *  else they are left empty). */
  admin: boolean;
  mcp: {
    /** Where the config file is (the admin's only; '' for anyone else). */
    configPath: string;
    /** The config file is being read and its servers connected. */
    busy: boolean;
    /** The file is invalid (the servers already running keep running). */
    configError: string | null;
    /** MCP_CONFIG_EDITABLE=1 and the viewer is the admin: the file (which may hold secrets) can be read and saved
     *  from the page. */
    editable: boolean;
    /** Saving needs the admin's password again (accounts are on). */
    passwordRequired: boolean;
    /** Names, transports, states and tool names only: never a header or env value. */
    servers: ServerStatus[];
    problems: string[];
  };
  /** `problem`: what is wrong with the web search settings, when they are set but invalid (the server's words; the
   *  admin's only). */
  webSearch: { enabled: boolean; provider: string | null; problem: string | null };
}

export type ConfigFileResult = { ok: true; text: string } | ActionFailure;

const NOT_EDITABLE: ActionFailure = {
  ok: false,
  error: 'Editing the MCP config from the page is off (set MCP_CONFIG_EDITABLE=1 to allow it).',
  status: 403,
  code: 'mcp-not-editable',
};

const ADMIN_ONLY: ActionFailure = {
  ok: false,
  error: 'Only the admin may read or change the MCP configuration.',
  status: 403,
  code: 'admin-only',
};

const WRONG_PASSWORD: ActionFailure = {
  ok: false,
  error: 'That is not your password: the MCP configuration was not saved.',
  status: 403,
  code: 'wrong-password',
};

function snapshot(ctx: AppContext, viewer: Viewer, problems: string[]): IntegrationsStatus {
  const { config, mcp } = ctx;
  const { search, searchProblem } = ctx.webSearch.current();
  const admin = viewer.admin;
  return {
    admin,
    mcp: {
      configPath: admin ? config.mcp.configPath : '',
      busy: mcp.busy,
      configError: mcp.configError === undefined ? null : admin ? mcp.configError : '',
      editable: config.mcp.editable && admin,
      passwordRequired: ctx.mode === 'accounts',
      // A server's failure may name commands and paths of the server: the admin reads it, others see it failed.
      servers: admin
        ? mcp.status()
        : mcp.status().map((s) => (s.state.status === 'failed' ? { ...s, state: { status: 'failed', error: '' } } : s)),
      problems: admin ? problems : [],
    },
    webSearch: {
      enabled: Boolean(search),
      provider: search?.provider ?? null,
      problem: search || !admin ? null : (searchProblem ?? null),
    },
  };
}

/** The servers' states as they are now; `wait` waits for connecting servers to settle first. */
export async function integrationsStatus(ctx: AppContext, viewer: Viewer, wait = false): Promise<IntegrationsStatus> {
  await ctx.webSearch.apply().catch(() => {}); // another instance may have changed it
  const ready = prepareMcpTools(ctx.mcp);
  const problems = wait ? await ready : [];
  return snapshot(ctx, viewer, problems);
}

export async function readMcpConfigText(ctx: AppContext, viewer: Viewer): Promise<ConfigFileResult> {
  if (!viewer.admin) return ADMIN_ONLY;
  if (!ctx.config.mcp.editable) return NOT_EDITABLE;
  // Read as text, not parsed: an invalid file is still shown, so that it can be fixed. A file that cannot be read is
  // a fault (thrown: the action answers it with an error id).
  const text = await readFile(ctx.config.mcp.configPath, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw e;
  });
  return { ok: true, text: text || '{\n  "mcpServers": {}\n}\n' };
}

/** A config the file's checks refuse (not JSON, a server without a command or url…): the admin's to fix, said with
 *  what is wrong and where. */
function invalidConfig(problem: string): ActionFailure {
  return {
    ok: false,
    error: `The MCP configuration was not saved: ${problem}`,
    status: 400,
    code: 'mcp-config-invalid',
    values: { problem },
  };
}

/** Validates and saves the file, then reconnects the servers. Nothing is written when the text is invalid (a refusal
 *  saying what is wrong); a file that cannot be written is thrown (a fault). */
export async function saveMcpConfigText(
  ctx: AppContext,
  viewer: Viewer,
  text: string,
  /** The admin's password, asked again when accounts are on; checked against the signed-in session. */
  password: { headers: HeaderBag; value: string | undefined },
): Promise<{ ok: true; status: IntegrationsStatus } | ActionFailure> {
  if (!viewer.admin) return ADMIN_ONLY;
  if (!ctx.config.mcp.editable) return NOT_EDITABLE;
  if (ctx.mode === 'accounts' && !(await ctx.accounts.verifyPassword(password.headers, password.value ?? '')))
    return WRONG_PASSWORD;
  try {
    await writeMcpConfigFile(ctx.config.mcp.configPath, text);
  } catch (e) {
    if (isErrorNamed(e, 'McpConfigError')) return invalidConfig(e.message);
    throw e; // a fault (the file cannot be written): the action answers it with an error id
  }
  await ctx.mcp.start();
  await ctx.mcp.reload();
  return { ok: true, status: await integrationsStatus(ctx, viewer, true) };
}
