// ACCESS_TOKEN, the single-user lock on an exposed app: carried as `Authorization: Bearer <token>` or as the
// session cookie the sign-in page sets. The cookie holds an HMAC of the token, not the token, so it reveals nothing
// and changing ACCESS_TOKEN signs every browser out. Comparisons are constant-time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'agent_studio_session';
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

interface HeaderBag {
  get(name: string): string | null;
}

function sameSecret(a: string, b: string): boolean {
  // Equal-length digests, so neither the content nor the length of the guess leaks through timing.
  const digest = (s: string) => createHmac('sha256', 'agent-studio compare').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The cookie value for a token. */
export function sessionValue(token: string): string {
  return createHmac('sha256', token).update('agent-studio session v1').digest('base64url');
}

export function tokenMatches(candidate: string, token: string): boolean {
  return sameSecret(candidate, token);
}

/** The bearer token a request carries, if any ('' when the header is there but holds no bearer token). */
export function bearerOf(headers: HeaderBag): string | undefined {
  const auth = headers.get('authorization');
  if (auth === null) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return m ? m[1]! : '';
}

export function cookieOf(headers: HeaderBag, name: string): string | undefined {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export type Credential = { kind: 'bearer' | 'cookie'; valid: boolean } | { kind: 'none' };

/** What the request presents, checked against the token. A bearer header wins over the cookie. */
export function credentialOf(headers: HeaderBag, token: string): Credential {
  const bearer = bearerOf(headers);
  if (bearer !== undefined) return { kind: 'bearer', valid: bearer !== '' && tokenMatches(bearer, token) };
  const cookie = cookieOf(headers, SESSION_COOKIE);
  if (cookie !== undefined) return { kind: 'cookie', valid: sameSecret(cookie, sessionValue(token)) };
  return { kind: 'none' };
}

/** Set-Cookie for a signed-in browser: httpOnly, SameSite=Lax, Secure when the app is reached over HTTPS. */
export function sessionCookie(token: string, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${sessionValue(token)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${SESSION_MAX_AGE_S}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
