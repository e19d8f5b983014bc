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

/** What a tool's caller (the model) reads when `server`'s answer was cut at its limit. */
export function answerTooLarge(server: string, limitBytes: number): Error {
  return new Error(`${server} answered more than ${megabytes(limitBytes)}: the answer was not read further.`);
}

/** Statuses whose Response has no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

type Chunk = Uint8Array<ArrayBuffer>;

/** The stand-in for a response's body: the same chunks, counted as they are read. One object per response, its
 *  methods shared (a model call makes one of these; closures and descriptors per response cost more than reading
 *  a short answer). */
class BoundedBody {
  private reader: ReadableStreamDefaultReader<Chunk> | undefined;
  private read = 0;

  constructor(
    private readonly source: ReadableStream<Chunk>,
    private readonly maxBytes: number,
    /** The content-length the server declared (NaN when none). */
    private readonly declared: number,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  get locked(): boolean {
    return this.reader !== undefined;
  }

  getReader() {
    return { read: () => this.next(), cancel: (reason?: unknown) => this.cancel(reason), releaseLock: () => undefined };
  }

  async cancel(reason?: unknown): Promise<void> {
    await (this.reader ?? this.source).cancel(reason).catch(() => undefined);
  }

  async next(): Promise<ReadableStreamReadResult<Chunk>> {
    // Said up front: nothing of a body declared too large is read.
    if (this.declared > this.maxBytes) return this.refuse();
    const r = await (this.reader ??= this.source.getReader() as ReadableStreamDefaultReader<Chunk>).read();
    if (!r.done && (this.read += r.value.byteLength) > this.maxBytes) return this.refuse();
    return r;
  }

  /** A reader that leaves early (a `break` out of `for await`) drops the connection. */
  async return(): Promise<IteratorReturnResult<undefined>> {
    await this.cancel();
    return { done: true, value: undefined };
  }

  async whole(): Promise<Buffer> {
    const parts: Chunk[] = [];
    for (let r = await this.next(); !r.done; r = await this.next()) parts.push(r.value);
    return Buffer.concat(parts);
  }

  private async refuse(): Promise<never> {
    const e = new ResponseTooLargeError(this.maxBytes);
    await this.cancel(e);
    throw e;
  }
}

const BODY = Symbol('bounded body');
type Bounded = Response & { [BODY]: BoundedBody };

async function text(this: Bounded): Promise<string> {
  return new TextDecoder().decode(await this[BODY].whole());
}

async function arrayBuffer(this: Bounded): Promise<ArrayBuffer> {
  const b = await this[BODY].whole();
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

/** What a bounded response reads through its stand-in body, the same for every response. */
const BOUNDED_READERS: PropertyDescriptorMap = {
  body: {
    get(this: Bounded) {
      return this[BODY];
    },
  },
  text: { value: text },
  json: {
    async value(this: Bounded) {
      return JSON.parse(await text.call(this)) as unknown;
    },
  },
  arrayBuffer: { value: arrayBuffer },
  blob: {
    async value(this: Bounded) {
      return new Blob([await arrayBuffer.call(this)], { type: this.headers.get('content-type') ?? '' });
    },
  },
};

/**
 * `res` with its body cut at `maxBytes` (counted as read, after any decompression): past it, reading fails and the
 * connection is dropped. The same Response, its `body` replaced by a stand-in that hands on the same chunks (to
 * `for await`, as the SDK reads a stream, or to `getReader()`), and its `text`, `json`, `arrayBuffer` and `blob`
 * reading through it. Not a counting stream piped in front: on every model call that cost about 0.1 ms of
 * webstreams' set-up and per-chunk promises, more than all the rest of what the agent's loop adds to a call.
 */
export function limitBody(res: Response, maxBytes: number): Response {
  const source = res.body as ReadableStream<Chunk> | null;
  if (!source || NULL_BODY.has(res.status)) return res;
  const declared = Number(res.headers.get('content-length') ?? '');
  (res as Bounded)[BODY] = new BoundedBody(source, maxBytes, declared);
  return Object.defineProperties(res, BOUNDED_READERS);
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

/** A counter of what a body held so far: true once it holds more than `maxBytes`. */
type Over = (chunk: Uint8Array) => boolean;

function wholeBody(maxBytes: number): Over {
  let read = 0;
  return (chunk) => (read += chunk.byteLength) > maxBytes;
}

/** Server-sent events counted one event at a time: a blank line (LF, CRLF or CR) ends one and the count starts again. */
function eachEvent(maxBytes: number): Over {
  let pending = 0;
  let lineEmpty = true;
  let afterCR = false;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      pending++;
      if (b === 0x0a && afterCR) {
        afterCR = false;
        continue;
      }
      afterCR = b === 0x0d;
      if (b === 0x0a || b === 0x0d) {
        if (lineEmpty) pending = 0;
        lineEmpty = true;
      } else lineEmpty = false;
      if (pending > maxBytes) return true;
    }
    return false;
  };
}

/**
 * `res` with a real ReadableStream for a body (for readers that pipe it, as MCP's transports do), cut at `maxBytes`:
 * an event stream (text/event-stream) per event, since one may rightly stay open for a whole session, anything else
 * whole. Past the limit the body fails with ResponseTooLargeError, `onTooLarge` hears of it (a reader in the
 * background may only log what it read), and the connection is dropped. A stream per response: fine off a model's
 * hot path (see limitBody).
 */
export function limitMessages(
  res: Response,
  maxBytes: number,
  onTooLarge?: (e: ResponseTooLargeError) => void,
): Response {
  const source = res.body;
  if (!source || NULL_BODY.has(res.status)) return res;
  const events = /^\s*text\/event-stream\b/i.test(res.headers.get('content-type') ?? '');
  const declared = events ? NaN : Number(res.headers.get('content-length') ?? '');
  const over = events ? eachEvent(maxBytes) : wholeBody(maxBytes);
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const limited = new ReadableStream<Uint8Array>({
    async pull(controller) {
      reader ??= source.getReader();
      const r = declared > maxBytes ? undefined : await reader.read();
      if (r?.done) return controller.close();
      if (r && !over(r.value)) return controller.enqueue(r.value);
      const e = new ResponseTooLargeError(maxBytes);
      await reader.cancel(e).catch(() => undefined);
      controller.error(e);
      onTooLarge?.(e);
    },
    cancel: (reason) => (reader ?? source).cancel(reason),
  });
  const whole = () => new Response(limited);
  Object.defineProperties(res, {
    body: { value: limited },
    text: { value: () => whole().text() },
    json: { value: async () => JSON.parse(await whole().text()) as unknown },
    arrayBuffer: { value: () => whole().arrayBuffer() },
    blob: {
      value: async () => new Blob([await whole().arrayBuffer()], { type: res.headers.get('content-type') ?? '' }),
    },
  });
  return res;
}
