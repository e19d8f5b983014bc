// Next's proxy (the former middleware): every page, server action and body-less route request passes here before
// anything of the app runs. It applies the request checks (lib/http/check.ts), refuses bodies it would otherwise
// buffer, and gives each page a fresh CSP nonce. Route handlers that take bodies are left out of the matcher (Next
// buffers a proxied body in memory) and check themselves with guardRoute; test/security covers both halves.
import { NextResponse, type NextRequest } from 'next/server';
import { BodyTooLargeError, declaredLength } from '@/lib/http/body';
import { checkRequest, type RequestKind } from '@/lib/http/check';
import { MESSAGE_BODY_MAX_BYTES, newNonce, pageCsp } from '@/lib/http/headers';
import { requestPolicy } from '@/lib/http/policy';
import { problem, refusalResponse } from '@/lib/http/respond';

/** Paths answered by the sign-in page and form: reachable without the access token. */
export const SIGN_IN_PATHS = ['/sign-in', '/api/sign-in'];

function kindOf(request: NextRequest): RequestKind {
  if (request.headers.has('next-action')) return 'action';
  const path = request.nextUrl.pathname;
  if (SIGN_IN_PATHS.includes(path)) return 'sign-in';
  return path.startsWith('/api/') ? 'api' : 'page';
}

export function proxy(request: NextRequest): Response {
  const kind = kindOf(request);
  const refusal = checkRequest(request, requestPolicy(), kind);
  if (refusal) return refusalResponse(refusal, request);

  if (request.method !== 'GET' && request.method !== 'HEAD') {
    // Next reads a proxied body whole before the action sees it, so its size is settled here, from the header.
    const declared = declaredLength(request.headers);
    if (declared === undefined && request.headers.has('transfer-encoding'))
      return problem(411, 'Send the body with a Content-Length header.');
    if (declared !== undefined && declared > MESSAGE_BODY_MAX_BYTES)
      return problem(413, new BodyTooLargeError(MESSAGE_BODY_MAX_BYTES).message, { connection: 'close' });
  }

  if (kind !== 'page' && kind !== 'sign-in') return NextResponse.next();
  const nonce = newNonce();
  const csp = pageCsp(nonce, process.env.NODE_ENV === 'development');
  // Next reads the nonce for its own scripts from the request's CSP header; the layout reads x-nonce.
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', csp);
  return response;
}

export const config = {
  // Everything but static build files and the two route handlers that stream request bodies.
  matcher: ['/((?!_next/static/|_next/image|favicon\\.ico$|icon\\.svg$|api/chat$|api/files$).*)'],
};
