// The request decision (check.ts) over plain Headers: Host, the client's address, the token, Origin.
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionValue } from './access-token';
import { checkRequest, type RequestKind } from './check';
import { PEER_HEADER } from './peer';
import type { RequestPolicy } from './policy';
import { clearLimits, shared } from './rate-limit';

const open: RequestPolicy = { accounts: false, extraHosts: new Set(), hostsNeedingToken: new Set(['studio.lan']) };
const TOKEN = 'a-token-of-enough-length';
const locked: RequestPolicy = {
  accessToken: TOKEN,
  accounts: false,
  extraHosts: new Set(['studio.lan']),
  hostsNeedingToken: new Set(),
};
const accounts: RequestPolicy = { accounts: true, extraHosts: new Set(['studio.lan']), hostsNeedingToken: new Set() };

function req(method: string, headers: Record<string, string | null>) {
  const h = new Headers();
  for (const [k, v] of Object.entries({ host: 'localhost:3000', [PEER_HEADER]: '127.0.0.1', ...headers }))
    if (v !== null) h.set(k, v);
  return { method, headers: h };
}
const check = (
  policy: RequestPolicy,
  method: string,
  headers: Record<string, string | null>,
  kind: RequestKind = 'api',
) => checkRequest(req(method, headers), policy, kind);

beforeEach(() => {
  clearLimits();
});

describe('checkRequest without a token (this machine only)', () => {
  it('lets the local page and local tools in', () => {
    expect(check(open, 'GET', {})).toBeUndefined();
    expect(check(open, 'POST', { origin: 'http://localhost:3000' })).toBeUndefined();
    expect(check(open, 'POST', { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' })).toBeUndefined();
    expect(check(open, 'POST', { host: '[::1]:3000', origin: 'http://[::1]:3000' })).toBeUndefined();
    expect(check(open, 'POST', {})).toBeUndefined(); // curl: no Origin, no Sec-Fetch-Site
    expect(check(open, 'POST', { 'sec-fetch-site': 'same-origin' })).toBeUndefined();
  });

  it('refuses a name it is not served under (DNS rebinding), even with Origin equal to it', () => {
    const r = check(open, 'POST', { host: 'evil.example:3000', origin: 'http://evil.example:3000' });
    expect(r?.status).toBe(403);
    expect(r?.message).toMatch(/not served under the name "evil\.example"/);
    expect(check(open, 'GET', { host: null })?.status).toBe(400);
  });

  it('refuses a configured name beyond loopback until ACCESS_TOKEN is set, and says so', () => {
    expect(check(open, 'GET', { host: 'studio.lan' })?.message).toMatch(/only with ACCESS_TOKEN or AUTH=required set/);
  });

  it('refuses a client that is not on loopback, and an unstamped request', () => {
    expect(check(open, 'GET', { [PEER_HEADER]: '192.0.2.7' })?.message).toMatch(
      /serves only this machine.*192\.0\.2\.7/,
    );
    expect(check(open, 'GET', { [PEER_HEADER]: '::ffff:127.0.0.1' })).toBeUndefined();
    expect(check(open, 'GET', { [PEER_HEADER]: null })?.status).toBe(503);
  });

  it('refuses cross-site writes and actions, and cross-site reads that are not navigations', () => {
    const cases: Record<string, string>[] = [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: 'http://localhost:4000' }, // another port is another origin
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of cases) expect(check(open, 'POST', headers)?.status, JSON.stringify(headers)).toBe(403);
    expect(check(open, 'GET', { origin: 'http://evil.example' }, 'action')?.status).toBe(403);
    expect(check(open, 'GET', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' })?.status).toBe(403);
    expect(check(open, 'GET', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).toBeUndefined();
  });
});

describe('checkRequest with ACCESS_TOKEN', () => {
  const cookie = `agent_studio_session=${sessionValue(TOKEN)}`;

  it('needs the token from every client, loopback too; a navigation is sent to sign in', () => {
    expect(check(locked, 'GET', {})).toMatchObject({ status: 401, signIn: true });
    expect(check(locked, 'GET', { [PEER_HEADER]: '192.0.2.7', host: 'studio.lan' })?.status).toBe(401);
    expect(check(locked, 'GET', {}, 'sign-in')).toBeUndefined();
  });

  it('accepts the bearer token or the session cookie, on its configured names', () => {
    expect(check(locked, 'GET', { authorization: `Bearer ${TOKEN}`, host: 'studio.lan' })).toBeUndefined();
    expect(check(locked, 'GET', { cookie: `x=1; ${cookie}` })).toBeUndefined();
    expect(check(locked, 'GET', { cookie: 'agent_studio_session=forged' })).toMatchObject({
      status: 401,
      clearSession: true,
    });
    expect(check(locked, 'GET', { authorization: 'Bearer wrong' })?.message).toBe(
      'The bearer token is not this app’s ACCESS_TOKEN.',
    );
  });

  it('a bearer token is exempt from the Origin rule; a cookie is not', () => {
    expect(check(locked, 'POST', { authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' })).toBeUndefined();
    expect(check(locked, 'POST', { cookie, origin: 'http://evil.example' })?.status).toBe(403);
  });

  it('with accounts on: any client and the configured names are let in (who they are is settled next), Origin still counts', () => {
    expect(check(accounts, 'GET', { [PEER_HEADER]: '192.0.2.7', host: 'studio.lan' })).toBeUndefined();
    expect(check(accounts, 'GET', { host: 'evil.example' })?.status).toBe(403);
    expect(check(accounts, 'POST', { cookie: 'x=1', origin: 'http://evil.example' })?.status).toBe(403);
    // An API key: a browser never adds the header on its own; whether the key is good is lib/auth's to say.
    expect(
      check(accounts, 'POST', { authorization: 'Bearer as_anything', origin: 'http://evil.example' }),
    ).toBeUndefined();
    expect(check(open, 'GET', { [PEER_HEADER]: '192.0.2.7' })?.status).toBe(403);
  });

  it('PUBLIC_URL is the page’s origin behind a proxy that rewrites Host', () => {
    const proxied: RequestPolicy = { ...locked, publicOrigin: 'https://studio.example.com' };
    expect(check(proxied, 'POST', { cookie, origin: 'https://studio.example.com' })).toBeUndefined();
    expect(check(proxied, 'POST', { cookie, origin: 'https://other.example.com' })?.status).toBe(403);
  });

  it('after 10 wrong tokens a minute from one client, that client waits (429), others do not', () => {
    for (let i = 0; i < 10; i++) expect(check(locked, 'GET', { authorization: `Bearer wrong-${i}` })?.status).toBe(401);
    expect(check(locked, 'GET', { authorization: `Bearer ${TOKEN}` })).toMatchObject({ status: 429 });
    expect(check(locked, 'GET', { authorization: `Bearer ${TOKEN}`, [PEER_HEADER]: '127.0.0.2' })).toBeUndefined();
    expect(shared('auth-failures', () => null)).not.toBeNull();
  });
});
