// A data directory written before accounts existed (test/fixtures/pre-accounts/data-dir, written by commit de72fa0's
// own services: write.ts) opens with today's code: on loopback without accounts its one user sees everything as
// before; once accounts are on, the first account created (the admin) owns all of it, nothing lost, and the next
// user sees none of it. Run on a copy, as a real upgrade would be.
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isViewer, type Viewer } from '../../lib/auth/viewer';
import { loadConfig } from '../../lib/config';
import { PEER_HEADER } from '../../lib/http/peer';
import { clearLimits } from '../../lib/http/rate-limit';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { openStore } from '../../lib/store';
import { LOCAL_OWNER_ID, ownerScope, storageRoot } from '../../lib/store/owner';

const FIXTURE = path.join(__dirname, '../fixtures/pre-accounts/data-dir');
const HANDBOOK = 'b48598b6-e89e-4be0-be43-c24e908bbb85';
const MILK = '01f22ae1-1540-4d2f-8c28-79c87aad0b3a';
const HANDBOOK_HASH = '6115fff3233d5f3b68cfc15a83e8caf759dd7de51865079b484a5f274851397b';

const opened: AppContext[] = [];
afterEach(async () => {
  for (const ctx of opened.splice(0)) await ctx.store.close();
  clearLimits();
});

function copyOfFixture(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pre-accounts-'));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

async function open(dataDir: string, env: Record<string, string> = {}): Promise<AppContext> {
  const config = loadConfig({ DATA_DIR: dataDir, ...env });
  const ctx = await createAppContext(config, await openStore(dataDir));
  opened.push(ctx);
  return ctx;
}

const browser = (cookie?: string) =>
  new Headers({ host: 'localhost:3000', [PEER_HEADER]: '127.0.0.1', ...(cookie ? { cookie } : {}) });

/** Creates an account as the Create account page does, and the viewer its session cookie resolves to. */
async function signUp(ctx: AppContext, email: string): Promise<Viewer> {
  const answer = await ctx.accounts.signUp({ email, password: 'correct horse battery' }, browser());
  expect(answer.status).toBe(200);
  const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
  const viewer = await ctx.viewer(browser(cookie));
  if (!isViewer(viewer)) throw new Error(viewer.message);
  return viewer;
}

/** Everything a person would check of the old data, as `owner` sees it. */
async function whatTheySee(ctx: AppContext, owner: Viewer['owner']) {
  const conversations = await ctx.store.listConversations(owner);
  const turns = await ctx.store.listTurns(owner, MILK);
  const runs = await ctx.store.listRuns(owner, turns[0]!.turn.id);
  return {
    titles: conversations.map((c) => c.title).sort(),
    search: (await ctx.store.listConversations(owner, 'office')).map((c) => c.id),
    settings: (await ctx.store.getConversation(owner, MILK))?.settings.tools,
    handbookTurns: (await ctx.store.listTurns(owner, HANDBOOK)).map((t) => [t.turn.content, t.events.length]),
    milkRuns: runs.length,
    milkEvents: (await Promise.all(runs.map((r) => ctx.store.getRunEvents(owner, r.id)))).map((e) => e.length),
    documents: (await ctx.store.listDocuments(owner, HANDBOOK)).map((d) => [d.name, d.state, d.pages]),
    ownsHandbook: await ctx.store.ownsUpload(owner, HANDBOOK_HASH),
  };
}

describe('a data directory from before accounts', () => {
  it('opens: without accounts its one user sees it all as before; the first admin then owns it whole', async () => {
    const dir = copyOfFixture();
    const rawEvents = () => {
      const db = new Database(path.join(dir, 'agent-studio.db'), { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM run_events').get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const before = rawEvents();

    const single = await open(dir);
    const local = await single.accounts.localOwner();
    expect(local.ownerId).toBe(LOCAL_OWNER_ID);
    const seen = await whatTheySee(single, local);
    expect(seen).toEqual({
      titles: ['Office handbook', 'Remember to buy milk'],
      search: [HANDBOOK],
      settings: ['storage', 'calculator'],
      handbookTurns: [[expect.arrayContaining([{ text: 'When does the office open?' }]), expect.any(Number)]],
      milkRuns: 2,
      milkEvents: [expect.any(Number), expect.any(Number)],
      documents: [['handbook.md', 'ready', 1]],
      ownsHandbook: true,
    });
    expect(readFileSync(path.join(storageRoot(dir, local), 'notes/todo'), 'utf8')).toBe('buy milk');
    await single.store.close();
    opened.length = 0;

    // Accounts on: the first account is the admin and takes everything over.
    const accounts = await open(dir, { AUTH: 'required' });
    const admin = await signUp(accounts, 'admin@example.com');
    expect(admin.admin).toBe(true);
    expect(await whatTheySee(accounts, admin.owner)).toEqual(seen);
    expect(await accounts.store.listConversations(ownerScope(LOCAL_OWNER_ID))).toEqual([]);
    // The storage tool's keys moved with the rest; the files tools wrote stayed with their conversation.
    expect(readFileSync(path.join(storageRoot(dir, admin.owner), 'notes/todo'), 'utf8')).toBe('buy milk');
    expect(existsSync(path.join(dir, 'storage'))).toBe(false);
    expect(existsSync(path.join(dir, 'work', HANDBOOK, 'code_interpreter', 'result.csv'))).toBe(true);
    expect(existsSync(path.join(dir, 'files', HANDBOOK_HASH))).toBe(true);
    expect(rawEvents()).toBe(before);

    // The next user, by invite, sees none of it.
    const { token } = await accounts.admin.createInvite(admin);
    const answer = await accounts.accounts.signUp(
      { email: 'b@example.com', password: 'correct horse battery', invite: token },
      browser(),
    );
    const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
    const b = await accounts.viewer(browser(cookie));
    if (!isViewer(b)) throw new Error(b.message);
    expect(b.admin).toBe(false);
    expect(await accounts.store.listConversations(b.owner)).toEqual([]);
    expect(await accounts.store.listConversations(b.owner, 'office')).toEqual([]);
    expect(await accounts.store.ownsUpload(b.owner, HANDBOOK_HASH)).toBe(false);
    await accounts.store.close();
    opened.length = 0;

    // Back on loopback without accounts, the one user is the admin again: nothing is hidden.
    const again = await open(dir);
    expect((await again.accounts.localOwner()).ownerId).toBe(admin.userId);
    expect((await whatTheySee(again, await again.accounts.localOwner())).titles).toEqual(seen.titles);
  });
});
