// What /v1 does not serve, answered as OpenAI's API answers it and in its error shape: a path it has not (OpenAI's
// embeddings, completions…) is a 404 naming it, a method a served path does not answer a 405 with Allow. Next would
// answer the app's HTML 404 page and an empty 405, which an OpenAI client shows as its error message. OPTIONS on a
// served path says in Allow what it answers (Next's own OPTIONS would list every method the route exports, the
// 405s' too), and grants no CORS: the API is for programs, not for other sites' pages.

import { apiError } from './errors';

/** The paths /v1 serves, as the 404 names them. */
const SERVED = '/v1/chat/completions and /v1/models';

export function notServed(request: Request): Response {
  const path = new URL(request.url).pathname;
  return apiError(404, `${path} is not served by this server; it serves ${SERVED}.`, 'invalid_request_error', {
    code: 'not_found',
  });
}

/** The methods a served path answers: its own, HEAD with GET (as Next answers it), and OPTIONS. */
type Served = readonly ('GET' | 'POST')[];

function allowHeader(allow: Served): string {
  return [...allow.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])), 'OPTIONS'].join(', ');
}

/** `allow`: the methods the path answers. */
export function wrongMethod(request: Request, allow: Served): Response {
  const path = new URL(request.url).pathname;
  return apiError(
    405,
    `${path} answers ${allow.join(' and ')} only, not ${request.method}.`,
    'invalid_request_error',
    { code: 'method_not_allowed' },
    { allow: allowHeader(allow) },
  );
}

/** OPTIONS on a served path: 204 with Allow, and no Access-Control-* header (a browser's preflight fails). */
export function allowedMethods(allow: Served): Response {
  return new Response(null, { status: 204, headers: { allow: allowHeader(allow) } });
}
