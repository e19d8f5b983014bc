// The admin seat no longer goes to whoever comes first (issue #28, 12). Served beyond this machine without
// ACCESS_TOKEN (here: answering to a LAN name through ALLOWED_HOSTS, as behind a reverse proxy, whose requests come from
// loopback), the server prints a one-time setup code in its own log at start; creating the first account needs it,
// from this machine's address too, and it works once. Wrong or missing: 403 with the reason, and no account made. A
// server that serves only this machine prints none and makes its first account as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../lib/auth/admin';
import { request, startApp, type App } from './support/app';
import { authPost, PASSWORD, resultAs, signIn, type Session } from './support/accounts';

const CODE = /Setup code for the first account: ([2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4})/;

describe('served beyond this machine', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp({ env: { AUTH: 'required', ALLOWED_HOSTS: 'studio.lan' }, firstPage: '/sign-up' });
  }, 120_000);
  afterAll(() => app?.stop());

  const page = (headers: Record<string, string> = {}) =>
    request(app.url, '/sign-up', { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html', ...headers } });

  it('prints the code in the server’s log, and the Create account page asks for it (both languages)', async () => {
    expect(app.output()).toMatch(CODE);
    const en = await page();
    expect(en.status).toBe(200);
    expect(en.text).toContain('Setup code');
    expect(en.text).toContain('name="setupCode"');
    const zh = await page({ cookie: 'locale=zh-CN', 'accept-language': 'zh-CN' });
    expect(zh.text).toContain('初始设置码');
  });

  it('without the code, or with a wrong one, even from this machine: 403 with the reason; nobody is made', async () => {
    const code = CODE.exec(app.output())![1]!;
    for (const setupCode of [undefined, '', 'AAAA-BBBB-CCCC', code.slice(0, -1)]) {
      const refused = await authPost(app, 'sign-up/email', {
        email: 'first@example.com',
        password: PASSWORD,
        setupCode,
      });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.json<{ error: { code: string; message: string } }>().error).toMatchObject({
        code: 'setup-code',
        message: expect.stringMatching(/setup code this server printed in its log/),
      });
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    expect((await authPost(app, 'sign-in/email', { email: 'first@example.com', password: PASSWORD })).status).toBe(401);
    // The page still asks for it: nothing was used up.
    expect((await page()).text).toContain('name="setupCode"');
  });

  it('with the code (as typed: any case, spaces): the first account, the admin; then it works no more', async () => {
    const code = CODE.exec(app.output())![1]!;
    const made = await authPost(app, 'sign-up/email', {
      email: 'owner@example.com',
      password: PASSWORD,
      setupCode: ` ${code.toLowerCase().replaceAll('-', ' ')} `,
    });
    expect(made.status, made.text).toBe(200);
    const owner: Session = await signIn(app, 'owner@example.com');
    const users = await resultAs<UserRow[]>(app, owner, 'listUsers', []);
    expect(users).toMatchObject({ ok: true, value: [{ email: 'owner@example.com', admin: true }] });
    // The page no longer asks for a code; the code makes no second admin.
    expect((await page()).text).not.toContain('name="setupCode"');
    await resultAs(app, owner, 'updateServerSettings', [{ signUp: 'open' }]);
    const second = await authPost(app, 'sign-up/email', {
      email: 'second@example.com',
      password: PASSWORD,
      setupCode: code,
    });
    expect(second.status).toBe(200);
    const after = await resultAs<UserRow[]>(app, owner, 'listUsers', []);
    expect(after.ok && after.value.filter((u) => u.admin).map((u) => u.email)).toEqual(['owner@example.com']);
  });
});

describe('served on this machine only', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp({ env: { AUTH: 'required' } });
  }, 120_000);
  afterAll(() => app?.stop());

  it('prints no code, asks for none, and makes the first account as before', async () => {
    expect(app.output()).not.toMatch(/Setup code/);
    const page = await request(app.url, '/sign-up', { headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' } });
    expect(page.text).not.toContain('name="setupCode"');
    expect((await authPost(app, 'sign-up/email', { email: 'first@example.com', password: PASSWORD })).status).toBe(200);
  });
});
