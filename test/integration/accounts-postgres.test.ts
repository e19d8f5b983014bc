// Accounts on PostgreSQL: the app's context on a PostgreSQL store with AUTH=required keeps the accounts library's
// tables (users, sessions) in the same database through the store's pool; the first account is the admin and takes
// over what the local owner had; the next user, by invite, sees none of it; an API key finds its owner; a second
// instance on the same database knows the same users and sessions.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { handleAuthRequest } from '../../lib/auth/http';
import { isViewer, type Viewer } from '../../lib/auth/viewer';
import { loadConfig } from '../../lib/config';
import { PEER_HEADER } from '../../lib/http/peer';
import { clearLimits } from '../../lib/http/rate-limit';
import { createAppContext, type AppContext } from '../../lib/server/context';
import { LOCAL_OWNER_ID, ownerScope } from '../../lib/store/owner';
import { openPostgresStore } from '../../lib/store';
import { freshDatabase, postgresMissing, queryRows, type TestDatabase } from '../support/postgres';

const missing = postgresMissing();

const browser = (cookie?: string, bearer?: string) =>
  new Headers({
    host: 'localhost:3000',
    [PEER_HEADER]: '127.0.0.1',
    ...(cookie ? { cookie } : {}),
    ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
  });

if (missing) {
  describe('accounts on PostgreSQL', () => it.skip(`skipped: ${missing}`, () => undefined));
} else {
  describe('accounts on PostgreSQL', () => {
    let db: TestDatabase;
    let dataDir: string;
    const opened: AppContext[] = [];

    async function instance(): Promise<AppContext> {
      const store = await openPostgresStore(db.url, { maintenance: false });
      const config = loadConfig({ DATA_DIR: dataDir, AUTH: 'required', DATABASE_URL: db.url });
      const ctx = await createAppContext(config, store);
      opened.push(ctx);
      return ctx;
    }

    async function viewerOf(ctx: AppContext, answer: Response): Promise<{ viewer: Viewer; cookie: string }> {
      expect(answer.status).toBe(200);
      const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
      const viewer = await ctx.viewer(browser(cookie));
      if (!isViewer(viewer)) throw new Error(viewer.message);
      return { viewer, cookie };
    }

    beforeEach(async () => {
      db = await freshDatabase('accounts');
      dataDir = mkdtempSync(path.join(tmpdir(), 'accounts-pg-'));
    });
    afterEach(async () => {
      for (const ctx of opened.splice(0)) await ctx.store.close().catch(() => undefined);
      await db.drop();
      clearLimits();
    });

    it('keeps users and sessions in the database; each user sees only their own; a key finds its owner', async () => {
      const first = await instance();
      expect(first.mode).toBe('accounts');
      const tables = await queryRows<{ table_name: string }>(
        db.url,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      );
      expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['user', 'session', 'conversations']));

      const before = await first.store.createConversation(ownerScope(LOCAL_OWNER_ID), { title: 'from before' });
      const signUp = (email: string, invite?: string) =>
        first.accounts.signUp({ email, password: 'correct horse battery', invite }, browser());
      const { viewer: admin } = await viewerOf(first, await signUp('admin@example.com'));
      expect(admin.admin).toBe(true);
      expect((await first.store.listConversations(admin.owner)).map((c) => c.id)).toEqual([before.id]);

      const { token } = await first.admin.createInvite(admin);
      const { viewer: b, cookie } = await viewerOf(first, await signUp('b@example.com', token));
      expect(b.admin).toBe(false);
      expect(await first.store.listConversations(b.owner)).toEqual([]);
      expect(await first.store.getConversation(b.owner, before.id)).toBeUndefined();
      await expect(first.chat.send(b, { conversationId: before.id, message: 'mine?' })).rejects.toThrow(
        /no longer exists/,
      );

      // A second instance on the same database knows B's session, and B's API key.
      const second = await instance();
      const again = await second.viewer(browser(cookie));
      expect(isViewer(again) && again.owner.ownerId).toBe(b.owner.ownerId);
      const { secret } = await second.apiKeys.create(b.owner, 'ci', 'read');
      const byKey = await first.viewer(browser(undefined, secret));
      expect(isViewer(byKey) && byKey.owner.ownerId).toBe(b.owner.ownerId);
      expect(await first.store.listApiKeys(admin.owner)).toEqual([]);
    });

    it('counts failed sign-ins in the database: wrong passwords spread over two instances lock as on one', async () => {
      const first = await instance();
      const second = await instance();
      await first.accounts.signUp({ email: 'admin@example.com', password: 'correct horse battery' }, browser());
      const signIn = (ctx: AppContext, peer: string) =>
        handleAuthRequest(
          new Request('http://localhost:3000/api/auth/sign-in/email', {
            method: 'POST',
            headers: { host: 'localhost:3000', [PEER_HEADER]: peer, 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'admin@example.com', password: 'not the password' }),
          }),
          ctx.accounts,
          ctx.auth,
        );
      for (const ctx of [first, second, first, second, first])
        expect((await signIn(ctx, '192.0.2.7')).status).toBe(401);
      for (const ctx of [second, first]) {
        const refused = await signIn(ctx, '192.0.2.7');
        expect(refused.status).toBe(429);
        expect(await refused.json()).toMatchObject({ error: { code: 'wait-account' } });
      }
      // The account's owner, from an address of their own, still gets to try.
      expect((await signIn(second, '198.51.100.2')).status).toBe(401);
    });
  });
}
