// What /v1 does not serve, answered as OpenAI's API answers it and in its error shape: a path it has not (OpenAI's
// embeddings, completions…) is a 404 naming it, a method a served path does not answer a 405 with Allow. Next would
// answer the app's HTML 404 page and an empty 405, which an OpenAI client shows as its error message.

import { apiError } from './errors';

/** The paths /v1 serves, as the 404 names them. */
const SERVED = '/v1/chat/completions and /v1/models';

export function notServed(request: Request): Response {
  const path = new URL(request.url).pathname;
  return apiError(404, `${path} is not served by this server; it serves ${SERVED}.`, 'invalid_request_error', {
    code: 'not_found',
  });
}

/** `allow`: the methods the path answers (HEAD goes with GET, as Next answers it). */
export function wrongMethod(request: Request, allow: readonly ('GET' | 'POST')[]): Response {
  const path = new URL(request.url).pathname;
  return apiError(
    405,
    `${path} answers ${allow.join(' and ')} only, not ${request.method}.`,
    'invalid_request_error',
    { code: 'method_not_allowed' },
    { allow: allow.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(', ') },
  );
}
