// When and how long to wait before asking the model server again.
import { ModelServiceError } from './errors';

export const MAX_RETRY_DELAY_MS = 300_000;

/** Exponential backoff with jitter (Qwen-Agent: delay doubles from the base, capped, times 1 + random[0,1)).
 *  A Retry-After from the server wins. */
export function retryDelayMs(attempt: number, err: ModelServiceError, baseMs: number, random = Math.random): number {
  if (err.retryAfterMs !== undefined) return Math.min(Math.max(0, err.retryAfterMs), MAX_RETRY_DELAY_MS);
  const exp = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);
  return Math.round(exp * (1 + random()));
}

/** Retry-After as seconds or an HTTP date; also the non-standard retry-after-ms. */
export function parseRetryAfter(
  get: (name: string) => string | null | undefined,
  now = Date.now(),
): number | undefined {
  const ms = get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const value = get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const NEVER_RETRY = [/maximum context length/i, /inappropriate content/i, /DataInspectionFailed/i, /context.length/i];

export function isRetryableStatus(status: number | undefined, message: string): boolean {
  if (NEVER_RETRY.some((re) => re.test(message))) return false;
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(abortError());
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortError(): Error {
  return new DOMException('The run was aborted.', 'AbortError');
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}
