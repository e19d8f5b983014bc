// A response body read up to a limit. A server the user named (a model connection's, the image it points to) may
// answer without end, or far more than anyone needs; read whole, one such answer filled the server's memory until it
// died, taking every user's runs with it. Past the limit the body fails with ResponseTooLargeError and the
// connection is dropped, whoever reads it (the OpenAI SDK, `text()`, `json()`).
import { findCause } from './cause-chain';
import type { FetchLike } from './guarded-fetch';

/** Matched by `name` or `code`, never by class: made in one bundle, caught in another. */
export class ResponseTooLargeError extends Error {
  override name = 'ResponseTooLargeError';
  readonly code = 'ERESPONSETOOLARGE';

  constructor(readonly limitBytes: number) {
    super(`The answer is larger than the ${megabytes(limitBytes)} limit: it was not read further.`);
  }
}

/** "64 MB", "512 KB": a limit as a person reads it. */
export function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Statuses whose Response cannot be made with a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** `res` with its body cut at `maxBytes` (counted as read, after any decompression): past it, reading fails. */
export function limitBody(res: Response, maxBytes: number): Response {
  if (!res.body || NULL_BODY.has(res.status)) return res;
  let read = 0;
  const declared = Number(res.headers.get('content-length') ?? '');
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      // Said up front: nothing of a body declared too large is read.
      if (declared > maxBytes) controller.error(new ResponseTooLargeError(maxBytes));
    },
    transform(chunk, controller) {
      read += chunk.byteLength;
      if (read > maxBytes) controller.error(new ResponseTooLargeError(maxBytes));
      else controller.enqueue(chunk);
    },
  });
  const bounded = new Response(res.body.pipeThrough(counter), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
  // The SDK and the callers name the URL that answered in their messages.
  Object.defineProperty(bounded, 'url', { value: res.url });
  return bounded;
}

/** A fetch whose every response body is cut at `maxBytes`. */
export function boundedFetch(fetch: FetchLike, maxBytes: number): FetchLike {
  return (async (input: Parameters<FetchLike>[0], init?: RequestInit) =>
    limitBody(await fetch(input, init), maxBytes)) as FetchLike;
}

/** Is `e`, or an error it was caused by, a body cut at its limit? Returns that error. */
export function responseTooLargeIn(e: unknown): ResponseTooLargeError | undefined {
  return findCause(
    e,
    (c) =>
      c instanceof Error &&
      (c.name === 'ResponseTooLargeError' || (c as { code?: unknown }).code === 'ERESPONSETOOLARGE'),
  ) as ResponseTooLargeError | undefined;
}
