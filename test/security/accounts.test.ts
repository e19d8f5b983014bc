// Accounts against the built app (AUTH=required), over real sessions on loopback: the first account is the admin,
// then sign-up follows the admin's mode (invite links: single use; closed: nobody); sign-in attempts are limited per
// account and per address with a message saying which and for how long; a disabled user is signed out everywhere,
// their keys stop and they cannot sign in; a reset password works at once; and the run and upload limits count per
// user (429 with the reason and Retry-After).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../lib/auth/admin';
import type { ApiKeyRecord } from '../../lib/store/types';
import { request, startApp, type App } from './support/app';
import { actionCall, as, authPost, chat, PASSWORD, resultAs, signIn, signUp, type Session } from './support/accounts';

let app: App;
let admin: Session;

beforeAll(async () => {
  app = await startApp({
    env: { AUTH: 'required', MAX_CONCURRENT_RUNS: '1', MAX_RUNS_PER_MINUTE: '1000', UPLOAD_BYTES_PER_DAY: '1000' },
  });
  admin = await signUp(app, 'first@example.com');
}, 90_000);
afterAll(() => app?.stop());

async function inviteLink(): Promise<string> {
  const made = await resultAs<{ link: string }>(app, admin, 'createInvite', []);
  if (!made.ok) throw new Error(made.error);
  return new URL(made.value.link).searchParams.get('invite')!;
}

describe('creating accounts', () => {
  it('the first account is the admin; after it, sign-up is by invite (the default), each link used once', async () => {
    const users = await resultAs<UserRow[]>(app, admin, 'listUsers', []);
    expect(users).toMatchObject({ ok: true, value: [{ email: 'first@example.com', admin: true }] });

    const uninvited = await authPost(app, 'sign-up/email', { email: 'x@example.com', password: PASSWORD });
    expect(uninvited.status).toBe(403);
    expect(uninvited.json().error?.message).toMatch(/by invitation/);

    const token = await inviteLink();
    const page = await request(app.url, `/sign-up?invite=${token}`, { headers: { 'sec-fetch-mode': 'navigate' } });
    expect(page.text).toContain('You were invited');
    const invited = await signUp(app, 'invited@example.com', { invite: token });
    expect((await resultAs(app, invited, 'listApiKeys', [])).ok).toBe(true);
    const reused = await authPost(app, 'sign-up/email', { email: 'y@example.com', password: PASSWORD, invite: token });
    expect(reused.status).toBe(403);
    expect(reused.json().error?.message).toMatch(/used already, revoked, or it expired/);
    // A revoked link no longer works either.
    const revokedToken = await inviteLink();
    const open = await resultAs<{ id: string }[]>(app, admin, 'listInvites', []);
    for (const i of (open as { value: { id: string }[] }).value) await resultAs(app, admin, 'revokeInvite', [i.id]);
    expect(
      (await authPost(app, 'sign-up/email', { email: 'z@example.com', password: PASSWORD, invite: revokedToken }))
        .status,
    ).toBe(403);
  });

  it('open: anyone may; closed: nobody, invite links included', async () => {
    await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
    await signUp(app, 'open@example.com');
    const token = await inviteLink();
    await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'closed' }]);
    const closed = await authPost(app, 'sign-up/email', {
      email: 'late@example.com',
      password: PASSWORD,
      invite: token,
    });
    expect(closed.status).toBe(403);
    expect(closed.json().error?.message).toBe('Sign-up is closed on this server.');
    await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'invite' }]);
  });

  it('the same email twice, or a short password, is refused with the reason', async () => {
    await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
    const twice = await authPost(app, 'sign-up/email', { email: 'open@example.com', password: PASSWORD });
    expect(twice.status).toBe(422);
    expect(twice.json().error?.message).toMatch(/exists already/);
    const short = await authPost(app, 'sign-up/email', { email: 'short@example.com', password: 'abc' });
    expect(short.status).toBe(400);
    expect(short.json().error?.message).toMatch(/short/i);
    await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'invite' }]);
  });

  it('sessions are httpOnly, SameSite=Lax cookies, and the session token never reaches the page’s scripts', async () => {
    const answer = await authPost(app, 'sign-in/email', { email: 'first@example.com', password: PASSWORD });
    const cookie = ([] as string[])
      .concat(answer.headers['set-cookie'] ?? [])
      .find((c) => c.includes('session_token'))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const token = decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!).split('.')[0]!;
    expect(answer.text).not.toContain(token);
    expect(answer.json<{ user: { email: string } }>().user.email).toBe('first@example.com');
  });
});

describe('signing in', () => {
  it('wrong passwords: after 5 for one account, that account waits, with a message saying so; others do not', async () => {
    await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
    await signUp(app, 'guessed@example.com');
    await signUp(app, 'bystander@example.com');
    for (let i = 0; i < 5; i++) {
      const wrong = await authPost(app, 'sign-in/email', { email: 'guessed@example.com', password: `nope-${i}-nope` });
      expect(wrong.status).toBe(401);
      expect(wrong.json().error).toEqual({ message: 'Wrong email or password.', code: 'wrong-credentials' });
    }
    const limited = await authPost(app, 'sign-in/email', { email: 'guessed@example.com', password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error?.message).toMatch(/^Too many failed sign-ins for this account\. Try again in \d+ s/);
    // The page says it in its language from the code and the seconds (the catalog's authErrors).
    expect(limited.json().error).toMatchObject({
      code: 'wait-account',
      values: { seconds: Number(limited.headers['retry-after']) },
    });
    await signIn(app, 'bystander@example.com');
    await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'invite' }]);
  });
});

describe('the admin manages users', () => {
  it('disabling a user signs them out everywhere, stops their keys and sign-in; enabling and a new password let them back', async () => {
    const token = await inviteLink();
    const user = await signUp(app, 'disabled@example.com', { invite: token });
    const key = await resultAs<{ secret: string; key: ApiKeyRecord }>(app, user, 'createApiKey', ['script', 'run']);
    const secret = (key as { value: { secret: string } }).value.secret;
    const id = ((await resultAs<UserRow[]>(app, admin, 'listUsers', [])) as { value: UserRow[] }).value.find(
      (u) => u.email === 'disabled@example.com',
    )!.id;

    expect(await resultAs(app, admin, 'setUserDisabled', [id, true])).toEqual({ ok: true, value: null });
    expect((await request(app.url, '/api/health', { headers: as(app, user) })).status).toBe(401);
    // Disabling revoked the key for good (issue #28): 401, no longer the 403 of a disabled account's key.
    expect((await request(app.url, '/api/health', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(
      401,
    );
    const refused = await authPost(app, 'sign-in/email', { email: 'disabled@example.com', password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.json().error?.message).toMatch(/disabled/);
    // The admin cannot lock themselves out.
    const me = ((await resultAs<UserRow[]>(app, admin, 'listUsers', [])) as { value: UserRow[] }).value.find(
      (u) => u.admin,
    )!;
    expect(await resultAs(app, admin, 'setUserDisabled', [me.id, true])).toMatchObject({ ok: false });

    await resultAs(app, admin, 'setUserDisabled', [id, false]);
    expect(await resultAs(app, admin, 'resetUserPassword', [id, 'a brand new one'])).toEqual({ ok: true, value: null });
    expect((await authPost(app, 'sign-in/email', { email: 'disabled@example.com', password: PASSWORD })).status).toBe(
      401,
    );
    await signIn(app, 'disabled@example.com', 'a brand new one');
  });
});

describe('limits per user', () => {
  it('runs at once count per user (MAX_CONCURRENT_RUNS=1): a second run of one user gets 429, another user’s runs', async () => {
    const other = await signUp(app, 'runner@example.com', { invite: await inviteLink() });
    app.model.setScenario({ fallback: { content: 'slow '.repeat(60), chunkSize: 5, delayMs: 20 } });
    const first = await chat(app, admin, { message: 'long one' }, (e) => e.type === 'text-delta');
    expect(first.status).toBe(200);
    const second = await chat(app, admin, { message: 'another' });
    expect(second.status).toBe(429);
    expect(second.error).toMatch(/Too many runs at once/);
    const theirs = await chat(app, other, { message: 'mine' }, (e) => e.type === 'text-delta');
    expect(theirs.status).toBe(200);
    first.close();
    theirs.close();
    app.model.setScenario({ fallback: 'echo' });
  });

  it('upload bytes per day (UPLOAD_BYTES_PER_DAY=1000): past them a user gets 429 with when to retry; others may still', async () => {
    const up = (user: Session, bytes: number) =>
      request(app.url, '/api/files?name=a.txt', { method: 'POST', headers: as(app, user), body: 'x'.repeat(bytes) });
    expect((await up(admin, 600)).status).toBe(201);
    const over = await up(admin, 600);
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3600);
    expect(over.json().error?.message).toMatch(/in the last 24 hours.*UPLOAD_BYTES_PER_DAY/);
    const other = await signIn(app, 'runner@example.com');
    expect((await up(other, 600)).status).toBe(201);
  });

  it('a server action of a signed-out browser is refused 401 before anything runs (cross-site ones: cross-site.test.ts)', async () => {
    const before = await resultAs<ApiKeyRecord[]>(app, admin, 'listApiKeys', []);
    expect((await actionCall(app, undefined, 'createApiKey', ['x'])).status).toBe(401);
    expect(await resultAs(app, admin, 'listApiKeys', [])).toEqual(before);
  });
});

// Last: the address's wait would hold up every sign-in after it (it lasts a minute).
describe('signing in from one address', () => {
  it('wrong passwords from one address across accounts: after 10 the address waits', async () => {
    for (let i = 0; i < 5; i++)
      await authPost(app, 'sign-in/email', { email: `nobody${i}@example.com`, password: 'x'.repeat(9) });
    const limited = await authPost(app, 'sign-in/email', { email: 'bystander@example.com', password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.json().error?.message).toMatch(/^Too many failed sign-ins from your address/);
  });
});
