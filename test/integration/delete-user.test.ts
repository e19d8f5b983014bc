// Deleting a user (the admin's Delete on the Users page: lib/auth/admin.ts deleteUser, lib/server/user-data.ts) with
// the app's real services over a real SQLite file, accounts on (better-auth, real sessions by cookie): the account and
// its sessions go, and so does everything it owned: its model connections, its conversations with the models chosen
// in them (a local GGUF, one of its own connections), its saved agents, API keys and the storage tool's keys. Nothing of the admin's or of
// another user goes with it, and the admin cannot delete their own account.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isViewer, type Viewer } from '../../lib/auth/viewer';
import { parseAgentDefinition } from '../../lib/chat/saved-agents';
import { loadConfig } from '../../lib/config';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { storageRoot } from '../../lib/store/owner';
import { runTool } from '../../tools/run-tool';
import { StorageTool } from '../../tools/storage';

let dataDir: string;
let ctx: AppContext;
let db: Database.Database;
const HOST = { host: '127.0.0.1:3000' };
let adminSession: { cookie: string; me: Viewer } | undefined;

const headers = (cookie?: string) => new Headers({ ...HOST, ...(cookie ? { cookie } : {}) });

/** Signs up (the first account is the admin) and answers with the session cookie and the Viewer it resolves to. */
async function signUp(email: string, invite?: string): Promise<{ cookie: string; me: Viewer }> {
  const answer = await ctx.accounts.signUp({ email, password: 'correct-horse-battery', invite }, headers());
  expect(answer.status).toBe(200);
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const me = await ctx.viewer(headers(cookie));
  if (!isViewer(me)) throw new Error(`${email} is not signed in: ${me.message}`);
  return { cookie, me };
}

const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'delete-user-'));
  const file = path.join(dataDir, 'agent-studio.db');
  ctx = await createAppContext(
    // Users' connections point at loopback ports here (ALLOW_PRIVATE_MODEL_URLS); the address policy has its own tests.
    loadConfig({
      DATA_DIR: dataDir,
      AUTH: 'required',
      OPENAI_BASE_URL: '',
      MODEL_SCAN_PORTS: 'off',
      ALLOW_PRIVATE_MODEL_URLS: '1',
    }),
    await openSqliteStore(file),
  );
  db = new Database(file, { readonly: true });
});
afterAll(async () => {
  db.close();
  await ctx.store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('deleting a user', () => {
  it('deletes their account, sessions, connections, conversations (with their model choices), agents and keys', async () => {
    const admin = await signUp('admin@example.test');
    adminSession = admin;
    const inviteA = (await ctx.admin.createInvite(admin.me)).token;
    const alice = await signUp('alice@example.test', inviteA);
    const inviteB = (await ctx.admin.createInvite(admin.me)).token;
    const bob = await signUp('bob@example.test', inviteB);

    const shared = await ctx.models.addConnection(admin.me, {
      name: 'Team',
      baseURL: 'http://127.0.0.1:9/v1',
      saveAnyway: true,
    });
    const own = await ctx.models.addConnection(alice.me, {
      name: 'Alice lab',
      baseURL: 'http://127.0.0.1:9/v1',
      saveAnyway: true,
    });
    const bobs = await ctx.models.addConnection(bob.me, {
      name: 'Bob lab',
      baseURL: 'http://127.0.0.1:9/v1',
      saveAnyway: true,
    });
    await ctx.store.createConversation(alice.me.owner, { settings: { model: 'local/tiny.gguf' } });
    await ctx.store.createConversation(alice.me.owner, { settings: { model: `${own.id}/alpha` } });
    await ctx.store.createConversation(bob.me.owner, { settings: { model: 'local/tiny.gguf' } });
    await ctx.store.createAgent(
      alice.me.owner,
      parseAgentDefinition({
        name: 'Helper',
        description: '',
        avatar: '🤖',
        kind: 'fncall',
        systemMessage: '',
        tools: [],
      }),
    );
    const { secret } = await ctx.apiKeys.create(alice.me.owner, 'script', 'run');
    // What the storage tool kept for each (its root is the owner's, as a run's agent gets it: lib/chat/agents.ts).
    const remember = (root: string) =>
      runTool(new StorageTool({ root }), JSON.stringify({ operate: 'put', key: '/me', value: 'a secret' }), {
        files: [],
        lang: 'en',
        messages: [],
      });
    const aliceStorage = storageRoot(dataDir, alice.me.owner);
    const bobStorage = storageRoot(dataDir, bob.me.owner);
    await remember(aliceStorage);
    await remember(bobStorage);
    expect(existsSync(path.join(aliceStorage, 'me'))).toBe(true);
    const aliceId = alice.me.userId;
    expect(count('SELECT count(*) n FROM model_connections WHERE owner_id = ?', aliceId)).toBe(1);
    expect(
      count(`SELECT count(*) n FROM conversations WHERE owner_id = ? AND settings_json LIKE '%local/%'`, aliceId),
    ).toBe(1);
    expect(isViewer(await ctx.viewer(new Headers({ ...HOST, authorization: `Bearer ${secret}` })))).toBe(true);

    await ctx.admin.deleteUser(admin.me, headers(admin.cookie), aliceId);

    // Her account and sessions: gone, so her cookie and her API key resolve to nobody.
    expect((await ctx.admin.users(headers(admin.cookie))).map((u) => u.email)).toEqual([
      'admin@example.test',
      'bob@example.test',
    ]);
    expect(isViewer(await ctx.viewer(headers(alice.cookie)))).toBe(false);
    expect(isViewer(await ctx.viewer(new Headers({ ...HOST, authorization: `Bearer ${secret}` })))).toBe(false);
    // Everything she owned: gone; nothing reassigned to anyone.
    expect(count('SELECT count(*) n FROM model_connections WHERE owner_id = ?', aliceId)).toBe(0);
    expect(count('SELECT count(*) n FROM conversations WHERE owner_id = ?', aliceId)).toBe(0);
    expect(count(`SELECT count(*) n FROM conversations WHERE settings_json LIKE ?`, `%${own.id}%`)).toBe(0);
    expect(count('SELECT count(*) n FROM agents WHERE owner_id = ?', aliceId)).toBe(0);
    expect(count('SELECT count(*) n FROM api_keys WHERE owner_id = ? AND revoked_at IS NULL', aliceId)).toBe(0);
    expect(existsSync(path.dirname(aliceStorage))).toBe(false);
    // The admin's server-wide connection and Bob's things stay.
    expect((await ctx.models.connections(bob.me)).map((c) => c.id).sort()).toEqual([shared.id, bobs.id].sort());
    expect(await ctx.store.listConversations(bob.me.owner)).toHaveLength(1);
    expect(existsSync(path.join(bobStorage, 'me'))).toBe(true);
  });

  it('the admin cannot delete their own account', async () => {
    const { me, cookie } = adminSession!;
    await expect(ctx.admin.deleteUser(me, headers(cookie), me.userId)).rejects.toMatchObject({ code: 'delete-self' });
    expect(isViewer(await ctx.viewer(headers(cookie)))).toBe(true);
  });
});
