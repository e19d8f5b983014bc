import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store';
import { appContext, closeAppContext } from './context';
import { ownerScope } from '../store/owner';

const OWNER = ownerScope('owner-a');

describe('appContext', () => {
  const saved = process.env.DATA_DIR;
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'context-test-'));
  });
  afterEach(async () => {
    await closeAppContext();
    if (saved === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('builds the services once over <DATA_DIR>/agent-studio.db, marking runs an earlier process left running', async () => {
    const dataDir = path.join(dir, 'nested', 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    const earlier = await openSqliteStore(path.join(dataDir, 'agent-studio.db'));
    const conversation = await earlier.createConversation(OWNER);
    await earlier.addTurnWithRun(OWNER, conversation.id, 'q', 'left-running');
    await earlier.close();

    process.env.DATA_DIR = dataDir;
    const ctx = await appContext();
    expect(ctx.config.dataDir).toBe(dataDir);
    expect((await ctx.store.getRun(OWNER, 'left-running'))?.status).toBe('interrupted');
    expect(await appContext()).toBe(ctx);
    expect(ctx.chat.store).toBe(ctx.store);
    expect(ctx.uploads.store).toBe(ctx.store);
  });

  it('gives new conversations the function-call mode of AGENT_FNCALL_MODE', async () => {
    process.env.DATA_DIR = dir;
    const mode = process.env.AGENT_FNCALL_MODE;
    process.env.AGENT_FNCALL_MODE = 'nous';
    try {
      const ctx = await appContext();
      expect((await ctx.store.createConversation(OWNER)).settings.fncallMode).toBe('nous');
      expect(ctx.defaultSettings().fncallMode).toBe('nous');
    } finally {
      if (mode === undefined) delete process.env.AGENT_FNCALL_MODE;
      else process.env.AGENT_FNCALL_MODE = mode;
    }
  });

  it('creates a missing DATA_DIR, and after closing opens the same file again', async () => {
    const dataDir = path.join(dir, 'does', 'not', 'exist');
    process.env.DATA_DIR = dataDir;
    await (await appContext()).store.createConversation(OWNER, { title: 'persisted' });
    expect(fs.existsSync(path.join(dataDir, 'agent-studio.db'))).toBe(true);
    await closeAppContext();
    expect((await (await appContext()).store.listConversations(OWNER)).map((c) => c.title)).toEqual(['persisted']);
  });

  it("makes the process's MCP manager from MCP_CONFIG, hands it to the agents, and closing ends its servers", async () => {
    const fixture = path.resolve(__dirname, '../../test/fixtures/mcp-server.mjs');
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixture] } } }),
    );
    const saved = process.env.MCP_CONFIG;
    process.env.DATA_DIR = dir;
    process.env.MCP_CONFIG = config;
    const alive = (pid: number) => {
      try {
        return process.kill(pid, 0);
      } catch {
        return false;
      }
    };
    try {
      const ctx = await appContext();
      expect(ctx.tools.mcpServers).toBe(ctx.mcp);
      await ctx.mcp.start();
      const [pid] = ctx.mcp.pids();
      expect(pid).toBeGreaterThan(0);
      expect(alive(pid!)).toBe(true);
      await closeAppContext();
      for (let i = 0; i < 100 && alive(pid!); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(pid!)).toBe(false); // the server process is gone
    } finally {
      if (saved === undefined) delete process.env.MCP_CONFIG;
      else process.env.MCP_CONFIG = saved;
    }
  });

  it('tries again on the next request when the store cannot be opened', async () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, 'not a directory');
    process.env.DATA_DIR = file;
    await expect(appContext()).rejects.toThrow();
    process.env.DATA_DIR = path.join(dir, 'fixed');
    expect((await appContext()).config.dataDir).toBe(path.join(dir, 'fixed'));
  });
});
