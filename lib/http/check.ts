// The one decision every request goes through (the proxy for pages and server actions, guardRoute for route
// handlers): is it addressed to a name this app is served under (DNS rebinding), from a client allowed to use it
// (this machine, or anyone holding ACCESS_TOKEN, or anyone at all when accounts are on: then who they are is
// settled next, by lib/auth), and, when it changes something or runs a model, sent by the app's own page
// (cross-site requests)? A refusal says why in plain words; nothing behind it runs.
import { bearerOf, credentialOf } from './access-token';
import { clientKey } from './client';
import { HOW_TO_TOKEN, hostNameOf, isLoopbackAddress, isLoopbackName } from '../config/exposure.mjs';
import { peerOf, type HeaderBag } from './peer';
import type { RequestPolicy } from './policy';
import { shared, SlidingWindow } from './rate-limit';

export interface RequestFacts {
  method: string;
  headers: HeaderBag;
}

/** page: a page or its RSC data; action: a server action; api: a route handler; sign-in: the sign-in page or form. */
export type RequestKind = 'page' | 'action' | 'api' | 'sign-in';

export interface Refusal {
  status: 400 | 401 | 403 | 429 | 503;
  message: string;
  retryAfterS?: number;
  /** The request lacks the access token: a browser navigating is sent to the sign-in page. */
  signIn?: boolean;
  /** The session cookie it carries is stale: the answer removes it. */
  clearSession?: boolean;
}

/** Failed token checks allowed per client and minute before further tries are refused (guessing the token). */
export const AUTH_FAILURES_PER_MINUTE = 10;

export function authFailures(): SlidingWindow {
  return shared('auth-failures', () => new SlidingWindow(AUTH_FAILURES_PER_MINUTE, 60_000));
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Does this request change state or run something (its Origin must be the app's own)? */
export function isUnsafe(req: RequestFacts, kind: RequestKind): boolean {
  return kind === 'action' || UNSAFE.has(req.method.toUpperCase());
}

function hostRefusal(headers: HeaderBag, policy: RequestPolicy): Refusal | undefined {
  const raw = headers.get('host');
  if (!raw) return { status: 400, message: 'The request has no Host header.' };
  const host = hostNameOf(raw);
  if (isLoopbackName(host) || policy.extraHosts.has(host)) return undefined;
  if (policy.hostsNeedingToken.has(host))
    return {
      status: 403,
      message: `This app answers to "${host}" only with ACCESS_TOKEN or AUTH=required set (it is named in PUBLIC_URL or ALLOWED_HOSTS). ${HOW_TO_TOKEN}`,
    };
  return {
    status: 403,
    message:
      `This app is not served under the name "${host}", so the request is refused (a page elsewhere may be ` +
      `trying to reach it through DNS rebinding). If the name is yours, list it in ALLOWED_HOSTS or PUBLIC_URL ` +
      `(with ACCESS_TOKEN set).`,
  };
}

/** Why the Origin (or Sec-Fetch-Site) shows another site sent this, or undefined when it is the app's page. */
function originProblem(headers: HeaderBag, policy: RequestPolicy): string | undefined {
  const origin = headers.get('origin');
  if (origin !== null) {
    let url: URL | undefined;
    try {
      url = origin === 'null' ? undefined : new URL(origin);
    } catch {
      url = undefined;
    }
    if (url && policy.publicOrigin === url.origin) return undefined;
    if (
      url &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.host === headers.get('host')?.toLowerCase()
    )
      return undefined;
    return `it was sent by ${origin === 'null' ? 'an opaque origin ("null")' : `the page at ${url?.origin ?? origin}`}, not by this app's own page`;
  }
  // Browsers send Origin with every POST, PUT, PATCH and DELETE; with neither header this is not a web page's
  // request (curl, a script): nothing cross-site to refuse.
  const site = headers.get('sec-fetch-site');
  if (site === null || site === 'same-origin') return undefined;
  return `it was sent by a ${site} page, not by this app's own page`;
}

/** Fetch metadata: another site may link to the app (a navigation), but not embed or read it. */
function crossSiteRead(req: RequestFacts): boolean {
  const site = req.headers.get('sec-fetch-site');
  if (site !== 'cross-site' && site !== 'same-site') return false;
  const navigation = req.headers.get('sec-fetch-mode') === 'navigate';
  return !(navigation && (req.method === 'GET' || req.method === 'HEAD'));
}

export function checkRequest(req: RequestFacts, policy: RequestPolicy, kind: RequestKind): Refusal | undefined {
  const { headers } = req;
  const peer = peerOf(headers);
  if (peer === undefined)
    return {
      status: 503,
      message:
        'The server cannot tell where this request came from (it arrived before the request checks were ' +
        'installed, or instrumentation.ts is missing from the build). Try again.',
      retryAfterS: 1,
    };

  const host = hostRefusal(headers, policy);
  if (host) return host;

  let bearer = false;
  if (policy.accessToken) {
    const client = clientKey(headers);
    const failures = authFailures();
    const wait = failures.waitMs(client);
    if (wait > 0)
      return {
        status: 429,
        message: `Too many wrong access tokens from this client; try again in ${Math.ceil(wait / 1000)} s.`,
        retryAfterS: Math.ceil(wait / 1000),
      };
    const credential = credentialOf(headers, policy.accessToken);
    if (credential.kind === 'bearer' && !credential.valid) {
      failures.hit(client);
      return { status: 401, message: 'The bearer token is not this app’s ACCESS_TOKEN.' };
    }
    if (credential.kind === 'cookie' && !credential.valid && kind !== 'sign-in') {
      failures.hit(client);
      return {
        status: 401,
        message: 'Your sign-in is no longer valid (the access token changed); sign in again.',
        signIn: true,
        clearSession: true,
      };
    }
    bearer = credential.kind === 'bearer' && credential.valid;
    if (!(credential.kind !== 'none' && credential.valid) && kind !== 'sign-in')
      return {
        status: 401,
        message:
          'This app needs its access token: sign in on the page, or send "Authorization: Bearer <ACCESS_TOKEN>".',
        signIn: true,
      };
  } else if (policy.accounts) {
    // Who it is (a session, an API key) is for lib/auth. A bearer header is never added by a browser on its own (a
    // cross-site page cannot set it without a CORS preflight, which is never granted), so it carries no cross-site
    // risk; a wrong key is refused there.
    bearer = Boolean(bearerOf(headers));
  } else if (!isLoopbackAddress(peer)) {
    return {
      status: 403,
      message:
        `This app serves only this machine, and the request came from ${peer}. To open it to other machines, ` +
        `set ACCESS_TOKEN (one user) or AUTH=required (accounts), and HOST=0.0.0.0 for npm start; see ` +
        `docs/security.md.`,
    };
  }

  if (isUnsafe(req, kind)) {
    if (bearer) return undefined; // a bearer token is never sent by a browser on its own: no cross-site risk
    const problem = originProblem(headers, policy);
    if (problem) return { status: 403, message: `Refused: ${problem}. Nothing was run.` };
  } else if (crossSiteRead(req)) {
    return { status: 403, message: 'Refused: another site may link to this app, but not load its data.' };
  }
  return undefined;
}
