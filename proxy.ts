// Next's proxy (the former middleware): pages and the route handlers without request bodies pass here before
// anything of the app runs. It applies the request checks (lib/http/check.ts) and gives each page a fresh CSP nonce.
// Requests with bodies Next would have to read whole first (it buffers a proxied body and reads it to its end before
// going on) are left out of the matcher, so their limits cut them as they stream: server actions (Next-Action
// header) check themselves with guardAction (app/actions/guard.ts), and POST /api/chat, /api/files,
// /api/local-models and /v1/chat/completions with guardRoute. test/security/coverage.test.ts proves every route
// and action is covered by one or the other.
import { NextResponse, type NextRequest } from 'next/server';
import { BodyTooLargeError, declaredLength } from '@/lib/http/body';
import { checkRequest, type RequestKind } from '@/lib/http/check';
import { appConfig } from '@/lib/server/app-config';
import { MESSAGE_BODY_MAX_BYTES, newNonce, pageCsp } from '@/lib/http/headers';
import { REQUESTED_PATH_HEADER } from '@/lib/http/next-path';
import { requestPolicy } from '@/lib/http/policy';
import { problem, refusalResponse } from '@/lib/http/respond';
import { asOpenAiError } from '@/lib/openai-api/errors';

/** Paths answered by the sign-in page and form: reachable without the access token. */
export const SIGN_IN_PATHS = ['/sign-in', '/api/sign-in'];

/** The OpenAI-compatible API's paths (/v1 itself included: it answers a 404 in OpenAI's shape). */
const isV1 = (path: string) => path === '/v1' || path.startsWith('/v1/');

function kindOf(request: NextRequest): RequestKind {
  const path = request.nextUrl.pathname;
  if (SIGN_IN_PATHS.includes(path)) return 'sign-in';
  return path.startsWith('/api/') || isV1(path) ? 'api' : 'page';
}

/** The path and query a page request asked for, without Next's own cache-busting parameter. */
function requestedPath(request: NextRequest): string {
  const url = request.nextUrl.clone();
  url.searchParams.delete('_rsc');
  return `${url.pathname}${url.search}`;
}

export async function proxy(request: NextRequest): Promise<Response> {
  const kind = kindOf(request);
  const policy = requestPolicy(appConfig().http);
  const refusal = checkRequest(request, policy, kind);
  if (refusal) {
    const answer = refusalResponse(refusal, request, policy.publicOrigin);
    // OpenAI's clients read /v1's errors in OpenAI's shape (type, param, code).
    return isV1(request.nextUrl.pathname) ? asOpenAiError(answer) : answer;
  }

  if (request.method !== 'GET' && request.method !== 'HEAD') {
    // Pages only answer GET (server actions do not come this way: see the matcher).
    if (kind === 'page') return problem(405, 'Pages answer GET only.', { allow: 'GET, HEAD' });
    // Next reads a proxied body whole before the handler sees it, so its size is settled here, from the header.
    const declared = declaredLength(request.headers);
    const v1 = (answer: Response) => (isV1(request.nextUrl.pathname) ? asOpenAiError(answer) : answer);
    if (declared === undefined && request.headers.has('transfer-encoding'))
      return v1(problem(411, 'Send the body with a Content-Length header.'));
    if (declared !== undefined && declared > MESSAGE_BODY_MAX_BYTES)
      return v1(problem(413, new BodyTooLargeError(MESSAGE_BODY_MAX_BYTES).message, { connection: 'close' }));
  }

  if (kind !== 'page' && kind !== 'sign-in') return NextResponse.next();
  const nonce = newNonce();
  const csp = pageCsp(nonce, process.env.NODE_ENV === 'development', appConfig().http.imageHosts);
  // Next reads the nonce for its own scripts from the request's CSP header; the layout reads x-nonce.
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  // The page asked for, for the sign-in to come back to (app/actions/guard.ts); set here, so never the client's own.
  headers.set(REQUESTED_PATH_HEADER, requestedPath(request));
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', csp);
  return response;
}

export const config = {
  matcher: [
    {
      // Everything but static build files, the route handlers that stream request bodies, and server actions.
      source:
        '/((?!_next/static/|_next/image|favicon\\.ico$|icon\\.svg$|api/chat$|api/files$|api/local-models$|v1/chat/completions$).*)',
      missing: [{ type: 'header', key: 'next-action' }],
    },
  ],
};
