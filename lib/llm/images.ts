// A connection's OpenAI-compatible images endpoint (POST {base URL}/images/generations), for image_gen. The request
// goes under the connection's address policy, as its chat requests do (a user's connection reaches public addresses
// only, unless the server allows private ones); so does the fetch of an image the server answers by URL. The
// server's answer may carry the image itself (b64_json) or its address (url); either way the bytes come back here,
// for the tool to check and keep.
import { blockedAddressIn, type AddressPolicy } from '../net/address-policy';
import { limitBody, responseTooLargeIn } from '../net/bounded-body';
import { guardedFetch } from '../net/guarded-fetch';
import { redactKey } from './redact-key';

/** Where a connection makes images, and with which model. */
export interface ImageEndpoint {
  baseURL: string;
  apiKey?: string;
  model: string;
  /** The connection's name, for messages. */
  connection?: string;
  /** Absent: any address (a connection the server's owner chose). */
  addressPolicy?: AddressPolicy;
}

export interface GenerateImageOptions {
  prompt: string;
  /** "1024x1024" and the like, as the server takes it. */
  size?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Largest image accepted (the image limit). */
  maxBytes: number;
}

export const IMAGE_TIMEOUT_MS = 180_000;

type Json = Record<string, unknown>;

/** Reads a response body, refusing one larger than `max` bytes (it is not read past that). */
async function boundedBytes(res: Response, max: number, what: string): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? '');
  if (declared > max) throw new Error(`${what} is larger than the ${max}-byte image limit`);
  const reader = res.body?.getReader();
  if (!reader) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw new Error(`${what} is larger than the ${max}-byte image limit`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts);
}

/** One image for `prompt` from the endpoint; rejects with a readable Error naming the connection. */
export async function generateImage(endpoint: ImageEndpoint, opts: GenerateImageOptions): Promise<Uint8Array> {
  const who = endpoint.connection ?? 'The images endpoint';
  const fetch = endpoint.addressPolicy ? guardedFetch(endpoint.addressPolicy) : globalThis.fetch;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? IMAGE_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const url = `${endpoint.baseURL.replace(/\/+$/, '')}/images/generations`;
  const failed = (e: unknown): never => {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (timeout.aborted) throw new Error(`${who} made no image within ${opts.timeoutMs ?? IMAGE_TIMEOUT_MS} ms`);
    const cause = blockedAddressIn(e) ?? (e instanceof Error && e.cause instanceof Error ? e.cause : e);
    throw new Error(`${who} cannot be reached: ${cause instanceof Error ? cause.message : String(cause)}`);
  };
  const res = await fetch(url, {
    method: 'POST',
    signal,
    headers: {
      'content-type': 'application/json',
      ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
    },
    body: JSON.stringify({
      model: endpoint.model,
      prompt: opts.prompt,
      n: 1,
      ...(opts.size ? { size: opts.size } : {}),
    }),
  }).catch(failed);
  // The answer carries at most one image in base64 (4/3 of its bytes) and a little JSON around it.
  const text = await limitBody(res, Math.ceil((opts.maxBytes * 4) / 3) + 64 * 1024)
    .text()
    .catch((e: unknown) => {
      if (responseTooLargeIn(e)) throw new Error(`${who}'s answer is larger than an image within the image limit`);
      return failed(e);
    });
  let body: Json | undefined;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const error = body?.error as Json | string | undefined;
    const said = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : '';
    // A provider may repeat the key it was sent (the environment's, a connection's): never told on.
    const message = redactKey(said, endpoint.apiKey);
    throw new Error(`${who} answered HTTP ${res.status} to the image request${message ? `: ${message}` : ''}`);
  }
  const first = (body?.data as Json[] | undefined)?.[0];
  if (typeof first?.b64_json === 'string') {
    const bytes = Buffer.from(first.b64_json, 'base64');
    if (bytes.byteLength > opts.maxBytes) throw new Error(`${who}'s image is larger than the image limit`);
    return bytes;
  }
  if (typeof first?.url === 'string') {
    // An address relative to the server, or on the web: fetched under the same policy as the request.
    const at = new URL(first.url, url);
    if (at.protocol !== 'http:' && at.protocol !== 'https:')
      throw new Error(`${who} answered an image address that is not http(s)`);
    const image = await fetch(at, { signal }).catch(failed);
    if (!image.ok) throw new Error(`${who}'s image address answered HTTP ${image.status}`);
    return boundedBytes(image, opts.maxBytes, `${who}'s image`);
  }
  throw new Error(`${who} answered without an image (no data[0].b64_json or data[0].url)`);
}
