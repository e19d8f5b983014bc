// Accounts, second round (issue #28), against the built app with accounts on, whose services were built by a page
// (the Create account page came first, as a browser would): a password set by the admin or a disabled account ends
// that user's sessions and API keys; no answer of the accounts routes carries the session token; five wrong passwords
// from other addresses do not lock the real user out from their own; a refused sign-up is a 4xx with a clear JSON
// message; another user's uploads answer 404 as missing ones, not 500; and an API key drives none of the credential or
// admin actions. Each attack's proof: the attacker got a refusal, and nothing of the victim's was read, changed or
// kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../lib/auth/admin';
import type { ApiKeyView } from '../../lib/auth/api-keys';
import type { StoredDocument } from '../../lib/store/types';
import { request, startApp, type Answer, type App } from './support/app';
import { actionCall, as, authPost, PASSWORD, resultAs, signIn, signUp, type Session } from './support/accounts';

let app: App;
let admin: Session;
let alice: Session;
let bob: Session;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  app = await startApp({ env: { AUTH: 'required', MAX_RUNS_PER_MINUTE: '1000' }, firstPage: '/sign-up' });
  admin = await signUp(app, 'admin@example.com');
  await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
  alice = await signUp(app, 'alice@example.com');
  bob = await signUp(app, 'bob@example.com');
}, 120_000);
afterAll(() => app?.stop());

async function userId(email: string): Promise<string> {
  const users = await resultAs<UserRow[]>(app, admin, 'listUsers', []);
  if (!users.ok) throw new Error(users.error);
  return users.value.find((u) => u.email === email)!.id;
}

async function keyOf(user: Session, scope: 'read' | 'run', name = 'script'): Promise<{ secret: string; id: string }> {
  const made = await resultAs<{ secret: string; key: ApiKeyView }>(app, user, 'createApiKey', [name, scope]);
  if (!made.ok) throw new Error(made.error);
  return { secret: made.value.secret, id: made.value.key.id };
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const models = (secret: string) => request(app.url, '/v1/models', { headers: bearer(secret) });
const health = (user: Session) => request(app.url, '/api/health', { headers: as(app, user) });

describe('a password set by the admin, or a disabled account, ends the old sessions and API keys', () => {
  it('a new password: the old cookie signs nobody in, the old key gets 401 on /v1, the new password works', async () => {
    const carol = await signUp(app, 'carol@example.com');
    const key = await keyOf(carol, 'run');
    expect((await models(key.secret)).status).toBe(200);
    expect(
      await resultAs(app, admin, 'resetUserPassword', [await userId('carol@example.com'), 'a brand new one']),
    ).toEqual({ ok: true, value: null });
    expect((await health(carol)).status).toBe(401);
    const old = await models(key.secret);
    expect([old.status, old.json().error?.message]).toEqual([
      401,
      expect.stringMatching(/^This API key was revoked\./),
    ]);
    const fresh = await signIn(app, 'carol@example.com', 'a brand new one');
    expect((await health(fresh)).status).toBe(200);
    const keys = await resultAs<ApiKeyView[]>(app, fresh, 'listApiKeys', []);
    expect(keys.ok && keys.value.map((k) => [k.id, k.revokedAt !== undefined])).toEqual([[key.id, true]]);
  });

  it('disabled: cookie and key refused; enabled again: the key stays revoked, the user signs in anew', async () => {
    const dave = await signUp(app, 'dave@example.com');
    const key = await keyOf(dave, 'read');
    const id = await userId('dave@example.com');
    expect(await resultAs(app, admin, 'setUserDisabled', [id, true])).toEqual({ ok: true, value: null });
    expect((await health(dave)).status).toBe(401);
    expect((await models(key.secret)).status).toBe(401);
    await resultAs(app, admin, 'setUserDisabled', [id, false]);
    expect((await health(dave)).status).toBe(401);
    const old = await models(key.secret);
    expect([old.status, old.json().error?.message]).toEqual([
      401,
      expect.stringMatching(/^This API key was revoked\./),
    ]);
    expect((await health(await signIn(app, 'dave@example.com'))).status).toBe(200);
  });
});

describe('no session token in any answer of the accounts routes', () => {
  /** The session token a cookie carries (better-auth's `<token>.<signature>`). */
  const tokenOf = (session: Session) => decodeURIComponent(session.cookie.split('=')[1]!).split('.')[0]!;

  function noToken(answer: Answer, token: string, what: string) {
    expect(answer.text, `${what}: body`).not.toContain(token);
    expect(answer.text, `${what}: a token field`).not.toMatch(
      /"(token|sessionToken|accessToken|refreshToken|idToken)"/,
    );
    for (const [name, value] of Object.entries(answer.headers))
      if (name !== 'set-cookie') expect(String(value), `${what}: header ${name}`).not.toContain(token);
  }

  it('sign-up, sign-in, get-session, sign-out, and every other path under /api/auth', async () => {
    const sessionOf = (answer: Answer): Session => ({
      email: 'erin@example.com',
      cookie: ([] as string[])
        .concat(answer.headers['set-cookie'] ?? [])
        .find((c) => c.includes('session_token='))!
        .split(';')[0]!,
    });
    const made = await authPost(app, 'sign-up/email', { email: 'erin@example.com', password: PASSWORD });
    noToken(made, tokenOf(sessionOf(made)), 'sign-up');
    const signedIn = await authPost(app, 'sign-in/email', { email: 'erin@example.com', password: PASSWORD });
    const session = sessionOf(signedIn);
    const token = tokenOf(session);
    noToken(signedIn, token, 'sign-in');

    const state = await request(app.url, '/api/auth/get-session', { headers: as(app, session) });
    expect(state.status).toBe(200);
    noToken(state, token, 'get-session');
    expect(state.json<{ user: { email: string }; session: { expiresAt: string } }>()).toMatchObject({
      user: { email: 'erin@example.com' },
      session: { expiresAt: expect.any(String) },
    });

    for (const path of ['error', 'list-sessions', 'admin/list-users', 'update-user', 'change-password']) {
      noToken(await request(app.url, `/api/auth/${path}`, { headers: as(app, session) }), token, `GET ${path}`);
      noToken(await authPost(app, path, {}, { cookie: session.cookie }), token, `POST ${path}`);
    }
    noToken(await authPost(app, 'sign-in/social', { provider: 'oidc' }, { cookie: session.cookie }), token, 'social');
    const out = await authPost(app, 'sign-out', {}, { cookie: session.cookie });
    expect(out.status).toBe(200);
    noToken(out, token, 'sign-out');
    expect((await health(session)).status).toBe(401);
  });
});

describe('wrong passwords: a lock only on what the guesser controls', () => {
  /** POST /api/auth/sign-in/email from a loopback address of its own (the socket's address is what counts). */
  const signInFrom = (address: string, email: string, password: string) =>
    request(app.url, '/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url, 'x-forwarded-for': '127.0.0.1' },
      body: JSON.stringify({ email, password }),
      localAddress: address,
    });

  it('five wrong passwords from five other addresses: the real user still signs in from their own', async () => {
    await signUp(app, 'frank@example.com');
    for (let i = 2; i <= 6; i++)
      expect((await signInFrom(`127.0.0.${i}`, 'frank@example.com', `guess-${i}-guess`)).status).toBe(401);
    const owner = await signInFrom('127.0.0.1', 'frank@example.com', PASSWORD);
    expect(owner.status, owner.text).toBe(200);
    // A guesser that goes on from one address locks only that address out of this account.
    for (let i = 0; i < 4; i++) await signInFrom('127.0.0.2', 'frank@example.com', `more-${i}-guesses`);
    expect((await signInFrom('127.0.0.2', 'frank@example.com', PASSWORD)).status).toBe(429);
    expect((await signInFrom('127.0.0.1', 'frank@example.com', PASSWORD)).status).toBe(200);
  });

  it('the same five from one address lock that address for that account (429 with when), and only it', async () => {
    await signUp(app, 'grace@example.com');
    for (let i = 0; i < 5; i++)
      expect((await signInFrom('127.0.0.9', 'grace@example.com', `nope-${i}-nope`)).status).toBe(401);
    const locked = await signInFrom('127.0.0.9', 'grace@example.com', PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json().error).toMatchObject({ code: 'wait-account' });
    expect((await signInFrom('127.0.0.10', 'grace@example.com', PASSWORD)).status).toBe(200);
    expect((await signInFrom('127.0.0.9', 'frank@example.com', PASSWORD)).status).toBe(200);
  });
});

describe('a refused sign-up is a 4xx with a clear JSON message, and makes nobody', () => {
  it('closed, by invitation, a bad invite: 403 with the reason and its code; no account was made', async () => {
    const before = await resultAs<UserRow[]>(app, admin, 'listUsers', []);
    for (const [mode, invite, code] of [
      ['closed', undefined, 'closed'],
      ['invite', undefined, 'invite-only'],
      ['invite', 'not-an-invite', 'invite-invalid'],
    ] as const) {
      await resultAs(app, admin, 'updateServerSettings', [{ signUp: mode }]);
      const refused = await authPost(app, 'sign-up/email', {
        email: 'mallory@example.com',
        password: PASSWORD,
        invite,
      });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.headers['content-type']).toMatch(/application\/json/);
      expect(refused.json<{ error: { message: string; code: string } }>().error).toMatchObject({
        code,
        message: expect.stringMatching(/\S/),
      });
    }
    expect(await resultAs(app, admin, 'listUsers', [])).toEqual(before);
    expect((await authPost(app, 'sign-in/email', { email: 'mallory@example.com', password: PASSWORD })).status).toBe(
      401,
    );
    await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
  });
});

describe('another user’s uploads answer 404, as missing ones (typed errors across bundles)', () => {
  it('listing, reading and deleting them: 404 with the same words as for nobody’s; the owner still has them', async () => {
    const up = await request(app.url, '/api/files?name=ledger.md', {
      method: 'POST',
      headers: as(app, alice),
      body: '# Ledger\n\nwalrus-quartermaster\n',
    });
    expect(up.status).toBe(201);
    const doc = up.json<{ document: StoredDocument }>().document;
    const asBob = (path: string, method = 'GET') => request(app.url, path, { method, headers: as(app, bob) });
    const pairs: [Answer, Answer][] = [
      [
        await asBob(`/api/files?conversationId=${doc.conversationId}`),
        await asBob(`/api/files?conversationId=${MISSING}`),
      ],
      [await asBob(`/api/files/${doc.id}`), await asBob(`/api/files/${MISSING}`)],
      [await asBob(`/api/files/${doc.id}`, 'DELETE'), await asBob(`/api/files/${MISSING}`, 'DELETE')],
    ];
    for (const [theirs, nobodys] of pairs) {
      expect([theirs.status, nobodys.status], theirs.text).toEqual([404, 404]);
      expect(theirs.json()).toEqual(nobodys.json());
      expect(theirs.text).not.toContain('walrus');
    }
    const own = await request(app.url, `/api/files?conversationId=${doc.conversationId}`, { headers: as(app, alice) });
    expect(own.json<{ documents: StoredDocument[] }>().documents.map((d) => d.id)).toEqual([doc.id]);
  });
});

describe('an API key drives no credential or admin action', () => {
  it('a user’s run key: createApiKey, revokeApiKey (of another key), listApiKeys all 403; the keys are as they were', async () => {
    const other = await keyOf(alice, 'read', 'the other key');
    const run = await keyOf(alice, 'run', 'the run key');
    const before = await resultAs<ApiKeyView[]>(app, alice, 'listApiKeys', []);
    for (const [name, args] of [
      ['createApiKey', ['made by a key', 'run']],
      ['revokeApiKey', [other.id]],
      ['listApiKeys', []],
    ] as const) {
      const answer = await actionCall(app, undefined, name, [...args], bearer(run.secret));
      expect(answer.status, name).toBe(403);
      expect(answer.text).not.toContain('as_');
    }
    // The same keys, none revoked (only the run key's last use moved: it was presented).
    const shape = (r: Awaited<typeof before>) => r.ok && r.value.map((k) => [k.id, k.name, k.scope, k.revokedAt]);
    expect(shape(await resultAs<ApiKeyView[]>(app, alice, 'listApiKeys', []))).toEqual(shape(before));
    expect((await models(other.secret)).status).toBe(200);
  });

  it('the admin’s own run key: users, connections, the MCP configuration, invites: 403, nothing changed', async () => {
    const key = await keyOf(admin, 'run');
    const users = await resultAs<UserRow[]>(app, admin, 'listUsers', []);
    const connections = await resultAs(app, admin, 'listConnections', []);
    for (const [name, args] of [
      ['listUsers', []],
      ['setUserDisabled', [await userId('bob@example.com'), true]],
      ['resetUserPassword', [await userId('bob@example.com'), 'taken over 123']],
      ['createInvite', []],
      ['addConnection', [{ name: 'Exfil', baseURL: 'http://127.0.0.1:9/v1' }]],
      ['readMcpConfigText', []],
      ['saveMcpConfigText', ['{"mcpServers": {"x": {"command": "/bin/sh"}}}', PASSWORD]],
    ] as const) {
      expect((await actionCall(app, undefined, name, [...args], bearer(key.secret))).status, name).toBe(403);
    }
    expect(await resultAs(app, admin, 'listUsers', [])).toEqual(users);
    expect(await resultAs(app, admin, 'listConnections', [])).toEqual(connections);
    expect((await health(bob)).status).toBe(200);
    expect(
      (await authPost(app, 'sign-in/email', { email: 'bob@example.com', password: 'taken over 123' })).status,
    ).toBe(401);
  });

  it('a read key lists models and reads, but starts no run: 403 on POST /v1/chat/completions and /api/chat', async () => {
    const read = await keyOf(alice, 'read');
    const runsBefore = app.model.requests.length;
    const completion = await request(app.url, '/v1/chat/completions', {
      headers: { ...bearer(read.secret), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'assistant', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect([completion.status, completion.json().error?.message]).toEqual([
      403,
      'This API key may only read; make a key with the run scope (on the API keys page) for this.',
    ]);
    const chat = await request(app.url, '/api/chat', {
      headers: { ...bearer(read.secret), 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hi' }),
    });
    expect(chat.status).toBe(403);
    expect(app.model.requests.length).toBe(runsBefore);
    expect((await models(read.secret)).status).toBe(200);
  });
});
