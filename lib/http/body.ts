// Request bodies counted in bytes as they arrive and cut at the limit: nothing past it is read, so a huge body
// costs neither memory nor the time to receive it all. A declared Content-Length over the limit is refused unread.
import { formatBytes } from '../documents/limits';

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  readonly status = 413;
  constructor(
    readonly maxBytes: number,
    /** Refused from its Content-Length, before a byte was read. */
    readonly declared = false,
  ) {
    super(`The request body is larger than the ${formatBytes(maxBytes)} limit.`);
  }
}

/** A declared Content-Length (undefined when absent or not a number). */
export function declaredLength(headers: { get(name: string): string | null }): number | undefined {
  const raw = headers.get('content-length');
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}

/** How long a cut body goes on being read (and dropped) before the connection closes. The refusal is written after
 *  the handler's clean-up: a bound in bytes (4 MB, then 64 MB) drained in a few ms on loopback, before the refusal
 *  was written, and the reset then lost the 413 now and then (seen in CI for /api/files and /api/local-models).
 *  Bounded in time only: a client that got the refusal stops sending, and dropped bytes cost no memory. */
export const LINGER_MS = 2_000;

/**
 * Reads and drops more of a body that was cut, for LINGER_MS, then stops: closing at once, with the client still
 * sending, makes the kernel answer with a reset that can destroy the refusal before the client reads it.
 */
async function linger(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  const deadline = Date.now() + LINGER_MS;
  try {
    while (Date.now() < deadline) {
      const { done } = await reader.read();
      if (done) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A body's chunks as they arrive. Stopped before its end (a limit was hit), it reads a little more, then stops. */
export async function* bodyChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!ended) void linger(reader).catch(() => undefined);
  }
}

/** The body's chunks; throws BodyTooLargeError (and stops reading soon after) once more than `maxBytes` came. */
export async function* cappedChunks(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  makeError: () => Error = () => new BodyTooLargeError(maxBytes),
): AsyncIterable<Uint8Array> {
  let size = 0;
  for await (const chunk of bodyChunks(body)) {
    size += chunk.byteLength;
    if (size > maxBytes) throw makeError();
    yield chunk;
  }
}

/** The whole body, at most `maxBytes` of it. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = declaredLength(request.headers);
  if (declared !== undefined && declared > maxBytes) throw new BodyTooLargeError(maxBytes, true);
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of cappedChunks(request.body, maxBytes)) {
    parts.push(chunk);
    size += chunk.byteLength;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The body as UTF-8 text, at most `maxBytes` bytes of it. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
}
