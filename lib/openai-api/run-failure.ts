// How /v1 answers a run that started and then failed. By then the run is stored (a conversation of its own) and may
// have run tools, whose effects (a mail sent, a file written) a second run would repeat. OpenAI's clients retry every
// 408, 409, 429 and 5xx unless the answer says `x-should-retry: false`, so the answer says so whenever asking again
// would run a tool again or fail the same way; the status says whose failure it was, and `x-run-id` names the run.
import type { ErrorInfo } from '../protocol/events';
import { apiError, type ErrorType } from './errors';

/** The model server's failures (lib/llm/errors.ts), by name: not ours. */
const MODEL_SERVER_ERRORS = new Set(['ModelServiceError', 'StreamInterruptedError']);
/** The model layer's errors, which say whether they may pass (`retryable`): the server's and bad input to the layer
 *  (ModelInputError: messages that cannot fit, a setting it refuses), which fails the same each time. */
const JUDGED_ERRORS = new Set([...MODEL_SERVER_ERRORS, 'ModelInputError']);

export interface RunFailure {
  status: number;
  type: ErrorType;
  code: string;
  message: string;
  /** May a client ask again: nothing was run that a second run would repeat, and the failure may pass. */
  retry: boolean;
  retryAfterS?: number;
}

/**
 * The answer to a run that failed with `error`, `toolsRan` when a tool of the agent's ran (or started) in it:
 * - the model server's 429 is OpenAI's 429 (type `requests`, code `rate_limit_exceeded`) with its Retry-After;
 * - any other failure of the model server (a 5xx, a server that cannot be reached, a stream cut, an answer it
 *   refused) is a 502: a server behind this one failed, which a client tells from a 500, a fault of ours;
 * - anything else (a fault of ours or a tool's) is a 500, as before.
 * Asking again is allowed only when no tool ran and the failure may pass (the model layer judged it retryable, or a
 * fault of ours, which a client may retry as it retries one before the run started).
 */
export function runFailure(error: ErrorInfo, toolsRan: boolean): RunFailure {
  const fromModel = MODEL_SERVER_ERRORS.has(error.name);
  const mayPass = JUDGED_ERRORS.has(error.name) ? error.retryable === true : true;
  const retryAfterS = error.retryAfterMs !== undefined ? Math.ceil(error.retryAfterMs / 1000) : undefined;
  const base = {
    message: error.message,
    retry: mayPass && !toolsRan,
    ...(retryAfterS !== undefined ? { retryAfterS } : {}),
  };
  if (fromModel && error.status === 429) return { ...base, status: 429, type: 'requests', code: 'rate_limit_exceeded' };
  return { ...base, status: fromModel ? 502 : 500, type: 'server_error', code: 'run_failed' };
}

/** A non-streamed run's failure as an answer, with the run's id. */
export function runFailureResponse(failure: RunFailure, runId: string): Response {
  const headers: Record<string, string> = { 'x-run-id': runId };
  if (!failure.retry) headers['x-should-retry'] = 'false';
  if (failure.retryAfterS !== undefined) headers['retry-after'] = String(failure.retryAfterS);
  return apiError(failure.status, failure.message, failure.type, { code: failure.code }, headers);
}

/** A streamed run's failure as the stream's last event (its status and headers were sent with its first chunk):
 *  the same type, code and message, which OpenAI's clients raise as an APIError. */
export function runFailureEvent(failure: RunFailure): {
  error: { message: string; type: ErrorType; param: null; code: string };
} {
  return { error: { message: failure.message, type: failure.type, param: null, code: failure.code } };
}
