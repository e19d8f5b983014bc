// /api/auth/*: what of the accounts library is reachable over HTTP (app/api/auth/[...all] hands requests here, behind
// the request checks). Only what the pages and OIDC need; the rest of better-auth's endpoints (its admin API,
// account linking...) answer 404, since the app does those itself (lib/auth/admin.ts).
//   POST /api/auth/sign-up/email   {email, password, name?, invite?, setupCode?}  our sign-up (mode, invite, first
//                                                                      admin, the setup code: lib/config/setup-code.ts)
//   POST /api/auth/sign-in/email   {email, password}                  limited per account and address, and per address
//                                                                      (lib/auth/limits.ts)
//   POST /api/auth/sign-out
//   GET  /api/auth/get-session                                         {user, session: {expiresAt}} or null
//   POST /api/auth/sign-in/social  {provider: "oidc", callbackURL}     OpenID Connect, when configured
//   GET  /api/auth/callback/oidc                                       the provider's redirect back (on a refusal
//                                                                      the browser goes to /sign-in?error=<code>)
// Errors answer {"error": {"message": ...}}, as the rest of the API. No answer carries a session token (or any other
// token the library holds) in its body or headers: the session lives in its httpOnly cookie only, out of reach of the
// page's scripts; every answer passed through is cleaned of them (`withoutTokens`).
import { readBodyText } from '../http/body';
import { clientKey } from '../http/client';
import { problem } from '../http/respond';
import { isErrorNamed } from '../protocol/errors';
import type { AccountService, AccountUser, SignUpError } from './accounts';
import { MIN_PASSWORD_LENGTH, OIDC_PROVIDER_ID, OIDC_REFUSALS, type Auth, type OidcRefusal } from './better-auth';

const BODY_MAX_BYTES = 8 * 1024;

/** better-auth endpoints passed through as they are. */
const PASSED = new Set([
  'GET /get-session',
  'POST /sign-out',
  'POST /sign-in/social',
  `GET /callback/${OIDC_PROVIDER_ID}`,
  `POST /callback/${OIDC_PROVIDER_ID}`,
  'GET /error',
]);

async function jsonBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const value = JSON.parse(await readBodyText(request, BODY_MAX_BYTES)) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** An error answer the account pages say in their language: the server's words, and the code (with what it fills
 *  in) of the catalog's (`authErrors`). */
function coded(
  status: number,
  message: string,
  code: string,
  values?: Record<string, number>,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ error: values ? { message, code, values } : { message, code } }, { status, headers });
}

/** better-auth's codes for what a person can fix, as ours. */
const LIBRARY_CODES: Record<string, { code: string; values?: Record<string, number> }> = {
  PASSWORD_TOO_SHORT: { code: 'password-short', values: { min: MIN_PASSWORD_LENGTH } },
  PASSWORD_TOO_LONG: { code: 'password-long' },
  INVALID_EMAIL: { code: 'invalid-email' },
};

/** A signed-in answer without the session token in its body: the token lives in the httpOnly cookie only, out of
 *  reach of the page's scripts. The user is said as this app says it. */
async function signedIn(answer: Response): Promise<Response> {
  const body = (await answer.json()) as { user: AccountUser };
  const headers = new Headers({ 'content-type': 'application/json' });
  for (const cookie of answer.headers.getSetCookie()) headers.append('set-cookie', cookie);
  const { id, email, name } = body.user;
  return new Response(JSON.stringify({ user: { id, email, name } }), { status: answer.status, headers });
}

/** Keys whose values are credentials, wherever they are in a body. */
const TOKEN_KEY =
  /^(token|sessionToken|session_token|accessToken|access_token|refreshToken|refresh_token|idToken|id_token)$/i;

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !TOKEN_KEY.test(k))
      .map(([k, v]) => [k, scrub(v)]),
  );
}

/** An answer passed through from the accounts library without any token: JSON bodies with no token keys at any
 *  depth, and no header but the cookies, the redirect and the type (better-auth sends a session token in a header
 *  with some plugins). */
async function withoutTokens(answer: Response): Promise<Response> {
  const headers = new Headers();
  for (const cookie of answer.headers.getSetCookie()) headers.append('set-cookie', cookie);
  for (const name of ['location', 'content-type', 'cache-control']) {
    const v = answer.headers.get(name);
    if (v !== null) headers.set(name, v);
  }
  if (!(answer.headers.get('content-type') ?? '').includes('json'))
    return new Response(answer.body, { status: answer.status, headers });
  const text = await answer.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, { status: answer.status, headers });
  }
  return new Response(JSON.stringify(scrub(body)), { status: answer.status, headers });
}

/** The session as the page may see it: who is signed in and until when, never the token. */
async function sessionState(answer: Response): Promise<Response> {
  if (!answer.ok) return ours(answer);
  const body = (await answer.json().catch(() => null)) as {
    user?: AccountUser;
    session?: { expiresAt?: unknown };
  } | null;
  const headers = new Headers({ 'content-type': 'application/json', 'cache-control': 'no-store' });
  for (const cookie of answer.headers.getSetCookie()) headers.append('set-cookie', cookie);
  const state = body?.user
    ? {
        user: { id: body.user.id, email: body.user.email, name: body.user.name },
        session: { expiresAt: body.session?.expiresAt ?? null },
      }
    : null;
  return new Response(JSON.stringify(state), { status: 200, headers });
}

/** better-auth's error answers ({message, code}) in the API's shape; successes as they are (cookies included), without
 *  tokens. */
async function ours(
  answer: Response,
  messages: Partial<Record<number, { message: string; code: string }>> = {},
): Promise<Response> {
  if (answer.ok || answer.status < 400) return withoutTokens(answer);
  const body = (await answer
    .clone()
    .json()
    .catch(() => ({}))) as { message?: string; code?: string };
  const mapped = messages[answer.status];
  const known = body.code ? LIBRARY_CODES[body.code] : undefined;
  const message = mapped?.message || body.message || `The sign-in service answered ${answer.status}.`;
  const out = mapped
    ? coded(answer.status, message, mapped.code)
    : known
      ? coded(answer.status, message, known.code, known.values)
      : problem(answer.status, message);
  for (const cookie of answer.headers.getSetCookie()) out.headers.append('set-cookie', cookie);
  return out;
}

/** Where the provider's redirect back ends when it made no session: better-auth answers with an error, or sends the
 *  browser to its own error page; either way the browser goes to our sign-in page, which says why in its language. */
async function oidcOutcome(answer: Response): Promise<Response> {
  const location = answer.headers.get('location');
  let code: string | null | undefined;
  if (answer.status >= 400) code = ((await answer.json().catch(() => ({}))) as { code?: string }).code ?? 'oidc-failed';
  else if (location && new URL(location, 'http://x').pathname.startsWith('/api/auth/error'))
    code = new URL(location, 'http://x').searchParams.get('error');
  else return answer;
  const known = OIDC_REFUSALS.includes(code as OidcRefusal) ? code : 'oidc-failed';
  const out = new Response(null, { status: 302, headers: { location: `/sign-in?error=${known}` } });
  for (const cookie of answer.headers.getSetCookie()) out.headers.append('set-cookie', cookie);
  return out;
}

export async function handleAuthRequest(request: Request, accounts: AccountService, auth: Auth): Promise<Response> {
  if (accounts.mode !== 'accounts')
    return problem(404, 'Accounts are off on this server (set AUTH=required to turn them on; see docs/accounts.md).');
  const url = new URL(request.url);
  const route = `${request.method} ${url.pathname.replace(/^\/api\/auth/, '').replace(/\/+$/, '')}`;
  const address = clientKey(request.headers);

  if (route === 'POST /sign-up/email') {
    const body = await jsonBody(request);
    if (!body) return problem(400, 'Send {"email": "...", "password": "..."} as JSON.');
    const wait = await accounts.limits.signUpWait(address);
    if (wait)
      return coded(429, wait.message, wait.code, { seconds: wait.seconds }, { 'retry-after': String(wait.seconds) });
    try {
      const answer = await accounts.signUp(
        {
          email: text(body.email),
          password: text(body.password),
          name: text(body.name),
          invite: text(body.invite),
          setupCode: text(body.setupCode),
        },
        request.headers,
      );
      if (!answer.ok)
        return ours(answer, {
          422: { message: 'An account with this email exists already: sign in instead.', code: 'email-taken' },
        });
      await accounts.limits.signedUp(address);
      return signedIn(answer);
    } catch (e) {
      if (!isErrorNamed<SignUpError>(e, 'SignUpError')) throw e;
      if (e.code === 'setup-code') await accounts.limits.setupCodeFailed(address);
      return coded(e.status, e.message, e.code);
    }
  }

  if (route === 'POST /sign-in/email') {
    const body = await jsonBody(request);
    const email = text(body?.email).trim();
    if (!body || !email) return problem(400, 'Send {"email": "...", "password": "..."} as JSON.');
    const wait = await accounts.limits.signInWait(address, email);
    if (wait)
      return coded(429, wait.message, wait.code, { seconds: wait.seconds }, { 'retry-after': String(wait.seconds) });
    const delay = await accounts.limits.signInDelayMs(email);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const answer = await auth.api.signInEmail({
      body: { email, password: text(body.password) },
      headers: request.headers,
      asResponse: true,
    });
    if (answer.status === 401) await accounts.limits.signInFailed(address, email);
    if (answer.ok) return signedIn(answer);
    return ours(answer, {
      401: { message: 'Wrong email or password.', code: 'wrong-credentials' },
      403: {
        message: 'This account is disabled. Ask the admin of this Agent Studio to enable it again.',
        code: 'account-disabled',
      },
    });
  }

  if (route === `GET /callback/${OIDC_PROVIDER_ID}` || route === 'GET /error')
    return withoutTokens(await oidcOutcome(await auth.handler(request)));
  if (route === 'GET /get-session') return sessionState(await auth.handler(request));
  if (PASSED.has(route)) return ours(await auth.handler(request));
  return problem(404, `There is no ${route} here.`);
}
