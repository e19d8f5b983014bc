// Errors as OpenAI's API answers them: {"error": {"message", "type", "param", "code"}}. OpenAI's clients pick the
// error class by the status and expose type, param and code, which callers branch on (an invalid key, a rate limit,
// an unknown model). The /v1 routes answer every error this way, their request checks' refusals included.

/** OpenAI's error types (its API's `error.type`). */
export type ErrorType = 'invalid_request_error' | 'request_forbidden' | 'requests' | 'server_error';

export function apiError(
  status: number,
  message: string,
  type: ErrorType,
  extra: { code?: string; param?: string } = {},
  headers?: HeadersInit,
): Response {
  return Response.json(
    { error: { message, type, param: extra.param ?? null, code: extra.code ?? null } },
    { status, ...(headers ? { headers } : {}) },
  );
}

/** The type and code OpenAI gives an error of this status. */
export function errorKind(status: number): { type: ErrorType; code: string | null } {
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 403) return { type: 'request_forbidden', code: 'forbidden' };
  if (status === 404) return { type: 'invalid_request_error', code: 'not_found' };
  if (status === 413) return { type: 'invalid_request_error', code: 'request_too_large' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}

/**
 * An error answer in OpenAI's shape: one with only a message (the request checks', the sign-in's, the limits') gets
 * the type OpenAI gives its status, its own code (OpenAI's spelling) or else OpenAI's, and `param: null`; its status and headers (Retry-After,
 * WWW-Authenticate) stay. Anything else passes unchanged.
 */
export async function asOpenAiError(response: Response): Promise<Response> {
  if (response.status < 400 || !(response.headers.get('content-type') ?? '').includes('application/json'))
    return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: { message?: unknown; type?: unknown; code?: unknown } } | undefined;
  const error = body?.error;
  if (!error || typeof error.message !== 'string' || error.type !== undefined) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const kind = errorKind(response.status);
  // Its own code (store-busy) in OpenAI's spelling (store_busy), else OpenAI's for the status.
  const code = typeof error.code === 'string' ? error.code.replaceAll('-', '_') : kind.code;
  return apiError(response.status, error.message, kind.type, code ? { code } : {}, headers);
}
