// The admin's MCP configuration saved from the page (saveMcpConfigText, answered as its server action answers: a
// refusal as it is, anything thrown through app/actions/action-error.ts failure). Before, every error was a 500 with
// its raw message: a config that is not JSON or that the checks refuse read as the server's fault, and a file that
// could not be written showed the server's path. Now an invalid config is a 400 refusal saying what is wrong (coded,
// in the page's language), and a write that fails is a fault: "Something went wrong" with an error id, the details in
// the log. A real config file, a real SQLite store.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failure } from '../../app/actions/action-error';
import { makeViewer, type Viewer } from '../../lib/auth/viewer';
import { loadConfig } from '../../lib/config';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { saveMcpConfigText } from '../../lib/server/integrations';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';

const userTools = { codeInterpreter: true, web: true };
const ADMIN: Viewer = makeViewer({ owner: ownerScope('admin'), admin: true, via: 'local', userTools });
const GOOD = '{"mcpServers": {}}\n';

let dir: string;
let store: ChatStore;
const contexts: AppContext[] = [];

async function contextWith(configPath: string): Promise<AppContext> {
  const config = loadConfig({ DATA_DIR: dir, MCP_CONFIG: configPath, MCP_CONFIG_EDITABLE: '1' });
  const ctx = await createAppContext(config, store);
  contexts.push(ctx);
  return ctx;
}

/** Saves `text` as the page's server action does: its answer, or what it threw as the action answers it. */
const save = (ctx: AppContext, text: string) =>
  saveMcpConfigText(ctx, ADMIN, text, { headers: new Headers(), value: undefined }).catch(failure);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp-config-save-'));
  store = await openSqliteStore(path.join(dir, 'chat.db'));
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.mcp.closeAll()));
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('saving the MCP configuration from the page', () => {
  it('a config that is not JSON, or that the checks refuse, is a 400 refusal saying what is wrong; nothing is written', async () => {
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, GOOD);
    const ctx = await contextWith(file);

    const notJson = await save(ctx, '{"mcpServers": ');
    expect(notJson).toMatchObject({ ok: false, status: 400, code: 'mcp-config-invalid' });
    expect(notJson.ok === false && notJson.error).toMatch(
      /^The MCP configuration was not saved: The MCP config is not valid JSON: /,
    );

    const refused = await save(ctx, '{"mcpServers": {"files": {"command": 42}}}');
    expect(refused).toMatchObject({ ok: false, status: 400, code: 'mcp-config-invalid' });
    const problem = refused.ok === false ? String(refused.values?.problem) : '';
    expect(problem).toMatch(/^Invalid MCP config: files/);
    expect(refused.ok === false && refused.error).toBe(`The MCP configuration was not saved: ${problem}`);
    expect(readFileSync(file, 'utf8')).toBe(GOOD);
  });

  it('a file that cannot be written is a fault: 500 with an error id the log has, without the server’s path', async () => {
    // The config's folder is a file: the write fails (ENOTDIR), as root too.
    const blocker = path.join(dir, 'not-a-folder');
    writeFileSync(blocker, 'x');
    const ctx = await contextWith(path.join(blocker, 'mcp.json'));
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));

    const failed = await save(ctx, GOOD);
    expect(failed).toMatchObject({ ok: false, status: 500, code: 'server-fault' });
    const id = failed.ok === false ? String(failed.values?.id) : '';
    expect(failed.ok === false && failed.error).toBe(
      `Something went wrong on the server (error id ${id}); its log says what.`,
    );
    expect(JSON.stringify(failed)).not.toContain(dir);
    expect(lines.find((l) => l.startsWith(`[error ${id}] `))).toMatch(/ENOTDIR|EEXIST/);
  });
});
