// Refusals as HTTP answers, and the answers for the limits a handler hits (body too large, rate limited). The route
// guard that applies them (with the user's resolution) is lib/server/route.ts.
import { SESSION_COOKIE } from './access-token';
import { signInPath } from './next-path';
import { faultMessage, logError } from '../llm/error-report';
import { codedOf, isErrorNamed, statusOf } from '../protocol/errors';
import type { BodyTooLargeError } from './body';
import type { Refusal } from './check';
import type { RateLimitError } from './rate-limit';

export function problem(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { message } }, { status, headers });
}

/** Is this a browser loading a page (which is shown text or sent to sign in, rather than given JSON)? */
export function isNavigation(req: { method: string; headers: { get(name: string): string | null } }): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const mode = req.headers.get('sec-fetch-mode');
  if (mode) return mode === 'navigate';
  return (req.headers.get('accept') ?? '').includes('text/html');
}

const CLEAR_SESSION = `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;

export function refusalResponse(
  refusal: Refusal,
  req: { method: string; url: string; headers: Headers },
  publicOrigin?: string,
): Response {
  const headers: Record<string, string> = {};
  if (refusal.retryAfterS !== undefined) headers['retry-after'] = String(refusal.retryAfterS);
  if (refusal.clearSession) headers['set-cookie'] = CLEAR_SESSION;
  if (isNavigation(req)) {
    if (refusal.signIn) {
      const url = new URL(req.url);
      // Absolute, on PUBLIC_URL or the name the browser used (already checked): the proxy's own URL may say 0.0.0.0.
      const proto = req.headers.get('x-forwarded-proto') === 'https' ? 'https' : 'http';
      const origin = publicOrigin ?? `${proto}://${req.headers.get('host')}`;
      headers.location = `${origin}${signInPath(url.pathname + url.search)}`;
      return new Response(null, { status: 303, headers });
    }
    return new Response(`${refusal.message}\n`, {
      status: refusal.status,
      headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  if (refusal.status === 401) headers['www-authenticate'] = 'Bearer realm="agent-studio"';
  return problem(refusal.status, refusal.message, headers);
}

/** The answer for a limit a handler ran into, or undefined for any other error. */
export function limitResponse(e: unknown): Response | undefined {
  // Refused from its Content-Length: the connection closes once answered. Cut while streaming: what the client still
  // sends is read and dropped for a moment (lib/http/body.ts) before the connection goes, so that it sees the answer.
  if (isErrorNamed<BodyTooLargeError>(e, 'BodyTooLargeError'))
    return problem(413, e.message, e.declared ? { connection: 'close' } : {});
  if (isErrorNamed<RateLimitError>(e, 'RateLimitError'))
    return problem(429, e.message, { 'retry-after': String(e.retryAfterS) });
  return undefined;
}

/** Seconds a client is asked to wait before it tries again after the database was locked by another program. */
export const STORE_BUSY_RETRY_AFTER_S = 5;

/** The database locked by another program for longer than the store waits (StoreBusyError): not the caller's mistake
 *  and not a fault of ours to look up, but one that passes. A 503 with Retry-After, so that a client tries again
 *  (OpenAI's clients do), instead of a 500 with an error id. Undefined for any other error. */
export function storeBusyResponse(e: unknown): Response | undefined {
  if (!isErrorNamed(e, 'StoreBusyError')) return undefined;
  return Response.json(
    { error: { message: storeBusyMessage(e), code: 'store-busy' } },
    { status: 503, headers: { 'retry-after': String(STORE_BUSY_RETRY_AFTER_S) } },
  );
}

/** What a caller is told of a StoreBusyError. */
export function storeBusyMessage(e: Error): string {
  return `${e.message} Nothing was started; try again in a moment.`;
}

/** A handler's error as an answer: its own status (4xx) and message (with its code when it has one of ours), read from
 *  its fields whatever bundle made it; anything else is unexpected. */
export function errorResponse(e: unknown, during: string): Response {
  const limit = limitResponse(e);
  if (limit) return limit;
  const busy = storeBusyResponse(e);
  if (busy) return busy;
  const status = statusOf(e, 500);
  // A coded error is written to be read, a 5xx one too (a server that cannot be reached): said as it is.
  if (status >= 500 && !codedOf(e)) return unexpected(e, during);
  const message = e instanceof Error ? e.message : String(e);
  const code = codedOf(e)?.code;
  return Response.json({ error: code ? { message, code } : { message } }, { status });
}

/** The answer for an error nobody expected: a short message with an id, the error itself (with its stack, which may
 *  name the server's paths) only in the server log under that id. */
export function unexpected(e: unknown, during: string): Response {
  const id = logError(during, e);
  return Response.json({ error: { message: faultMessage(id), id } }, { status: 500 });
}
