// What the page is told when one of its server actions cannot start a run (app/actions/action-error.ts, the failure
// every action answers with): a refusal of what the user asked for keeps its 4xx status and says what to do, in the
// page's language when it has a code; a fault of ours is "Something went wrong" with an error id (code server-fault,
// said in the page's language), its details only in the server's log under that id. The chat service as the actions
// call it, over a real SQLite store, talking HTTP to the scripted model server; the fault is a plugin's, loaded from a
// folder as the app loads PLUGINS_DIR (its tool reads a key file that is gone when a run builds the agent). The
// accounts library's refusals (better-auth, real sessions by cookie over the same kind of store) are refusals too.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failure } from '../../app/actions/action-error';
import { isViewer } from '../../lib/auth/viewer';
import { everyToolActor } from '../../lib/chat/actor';
import type { ActionFailure } from '../../lib/chat/page';
import { saveAgentDefinition } from '../../lib/chat/saved-agents';
import { loadConfig } from '../../lib/config';
import { PluginCatalog } from '../../lib/plugins';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { writeKeyFilePlugin } from '../support/key-file-plugin';

const ME = everyToolActor(ownerScope('user-a'));
let dir: string;
let keyFile: string;
let model: ModelServer;
let store: ChatStore;
let ctx: AppContext;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'action-errors-'));
  keyFile = writeKeyFilePlugin(dir, dir);
  process.env.BILLING_KEY_FILE = keyFile;
  const catalog = new PluginCatalog(dir, []);
  await catalog.load();
  expect(catalog.failures()).toEqual([]);
  model = await createModelServer();
  store = await openSqliteStore(path.join(dir, 'chat.db'));
  const config = loadConfig({ DATA_DIR: dir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' });
  ctx = await createAppContext(config, store, { plugins: catalog });
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await store?.close();
  await model?.close();
  delete process.env.BILLING_KEY_FILE;
  rmSync(dir, { recursive: true, force: true });
});

/** The failure a server action answers with when `attempt` throws, as the page gets it. */
async function failureOf(attempt: () => Promise<unknown>): Promise<ActionFailure> {
  try {
    await attempt();
  } catch (e) {
    return failure(e);
  }
  throw new Error('it did not fail');
}

/** What the server writes to its log (console.error) from now on. */
function serverLog(): string[] {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
  return lines;
}

describe('a server action that cannot start a run', () => {
  it('on a fault of ours tells the page only that something went wrong, with an error id the log has', async () => {
    const billing = (await ctx.agents.listAgents(ME.owner)).find((a) => a.name === 'Billing Desk')!;
    rmSync(keyFile);
    const log = serverLog();
    const failed = await failureOf(() =>
      ctx.chat.send(ME, { message: 'invoice 7?', settings: { agentId: billing.id } }),
    );
    writeFileSync(keyFile, 'k');

    const id = /\(error id ([0-9a-f]{8})\)/.exec(failed.error)?.[1];
    expect(failed).toEqual({
      ok: false,
      status: 500,
      error: `Something went wrong on the server (error id ${id}); its log says what.`,
      code: 'server-fault',
      values: { id },
    });
    const line = log.find((l) => l.startsWith(`[error ${id}] `));
    expect(line).toContain('ENOENT');
    expect(line).toContain(keyFile);
  });

  it('on a refusal of what the user asked keeps its 4xx status and says what to do, coded when it can be', async () => {
    const helper = { name: 'Helper', kind: 'fncall' as const };
    const one = await saveAgentDefinition(store, ME.owner, undefined, helper);
    const two = await saveAgentDefinition(store, ME.owner, undefined, helper);
    const desk = await saveAgentDefinition(store, ME.owner, undefined, {
      name: 'Desk',
      kind: 'router',
      members: [one.id, two.id],
    });
    // A run still going: its model call waits (it is stopped at the end).
    model.setScenario({ fallback: { content: 'late', fault: { kind: 'stall', afterChunks: 0, ms: 20_000 } } });
    const going = await ctx.chat.send(ME, { message: 'take your time' });
    const log = serverLog();

    const send = (request: Parameters<typeof ctx.chat.send>[1]) => failureOf(() => ctx.chat.send(ME, request));
    expect(await send({ message: 'hi', settings: { agentId: desk.id } })).toEqual({
      ok: false,
      status: 400,
      error: 'Two agents of this Router are named "Helper"; names must differ: rename one of them.',
      code: 'agent-names-twice',
      values: { holder: 'Router', name: 'Helper' },
    });
    expect(await send({ message: 'hi', settings: { tools: ['no_such_tool'] } })).toEqual({
      ok: false,
      status: 400,
      error: 'Tool no_such_tool is not registered.',
      code: 'tool-unknown',
      values: { name: 'no_such_tool' },
    });
    expect(await send({ message: 'hi', settings: { model: 'local/../outside.gguf' } })).toEqual({
      ok: false,
      status: 400,
      error: '"../outside.gguf" is not a model name in the models folder.',
    });
    expect(await send({ message: '  ' })).toEqual({
      ok: false,
      status: 400,
      error: '"message" must be a non-empty string.',
    });
    expect(await failureOf(() => ctx.chat.replay(ME, going.runId, { fromIteration: 1 }))).toEqual({
      ok: false,
      status: 409,
      error: 'This run is still going: replay or continue it once it has ended.',
      code: 'run-still-going',
    });
    expect(
      await failureOf(() => ctx.chat.replay(ME, going.runId, { fromIteration: 'one' as unknown as number })),
    ).toMatchObject({ ok: false, status: 400, error: expect.stringMatching(/^Replay: fromIteration: /) });
    // A refusal is the user's to fix: nothing of it goes to the server's log as an error.
    expect(log.filter((l) => l.startsWith('[error '))).toEqual([]);

    await ctx.chat.stop(ME, going.runId);
    await ctx.runs.ended(going.runId);
  });
});

describe('an admin action the accounts library refuses', () => {
  it('keeps its status and message (better-auth names its status; the number is its statusCode)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'action-errors-auth-'));
    const accounts = await createAppContext(
      loadConfig({ DATA_DIR: dataDir, AUTH: 'required', OPENAI_BASE_URL: '', MODEL_SCAN_PORTS: 'off' }),
      await openSqliteStore(path.join(dataDir, 'agent-studio.db')),
    );
    try {
      const host = { host: '127.0.0.1:3000' };
      const signedUp = await accounts.accounts.signUp(
        { email: 'admin@example.test', password: 'correct-horse-battery' },
        new Headers(host),
      );
      const cookie = signedUp.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      const admin = await accounts.viewer(new Headers({ ...host, cookie }));
      if (!isViewer(admin)) throw new Error(admin.message);
      const log = serverLog();
      const failed = await failureOf(() =>
        accounts.admin.resetPassword(new Headers({ ...host, cookie }), admin.userId, 'x'.repeat(500)),
      );
      expect(failed).toEqual({ ok: false, status: 400, error: 'Password too long' });
      expect(log.filter((l) => l.startsWith('[error '))).toEqual([]);
    } finally {
      await accounts.store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
