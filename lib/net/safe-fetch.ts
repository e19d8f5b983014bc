// Server-side HTTP(S) GET that cannot be turned against the server's own network: each host is resolved once,
// every resolved address is checked, the connection is pinned to the checked address (no second lookup for a DNS
// rebinding answer to slip through), and redirects are followed by hand so each hop is checked the same way.
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import type { AddressPolicy } from './address-policy';
import { bareHost, resolveChecked, type Resolver } from './resolve-checked';

export type { Resolver };

export interface SafeFetchOptions extends AddressPolicy {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Past maxBytes: 'truncate' keeps the first maxBytes (and says so), 'error' fails. */
  oversize?: 'truncate' | 'error';
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Name resolution (tests inject one; default the system resolver, like any client). */
  resolve?: Resolver;
}

export interface SafeFetchResponse {
  /** The URL finally answered (after redirects). */
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

export class FetchError extends Error {
  override name = 'FetchError';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Resolves `host` once and checks every address; returns the one to connect to. */
async function pinnedAddress(host: string, opts: AddressPolicy & { resolve?: Resolver }): Promise<LookupAddress> {
  try {
    return await resolveChecked(host, opts);
  } catch (e) {
    if (e instanceof Error && e.name === 'BlockedAddressError') throw e;
    throw new FetchError(`Cannot resolve ${bareHost(host)}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function pinnedLookup(address: LookupAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  }) as unknown as LookupFunction;
}

function checkUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError(`Not a valid URL: ${String(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchError(`Only http and https URLs can be fetched (got ${url.protocol.replace(':', '')})`);
  if (url.username || url.password) throw new FetchError('URLs with credentials are not fetched');
  return url;
}

function decoded(res: http.IncomingMessage): NodeJS.ReadableStream {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return res.pipe(zlib.createInflate());
  if (encoding === 'br') return res.pipe(zlib.createBrotliDecompress());
  return res;
}

function request(url: URL, address: LookupAddress, opts: { headers?: Record<string, string> }, signal: AbortSignal) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method: 'GET',
      lookup: pinnedLookup(address),
      signal,
      headers: {
        'user-agent': 'Mozilla/5.0 (compatible; AgentStudio/0.1)',
        accept: '*/*',
        'accept-encoding': 'gzip, deflate, br',
        ...opts.headers,
      },
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

async function readBody(
  res: http.IncomingMessage,
  opts: SafeFetchOptions,
): Promise<{ body: Buffer; truncated: boolean }> {
  const declared = Number(res.headers['content-length']);
  if (opts.oversize !== 'truncate' && Number.isFinite(declared) && declared > opts.maxBytes) {
    res.destroy();
    throw new FetchError(`The response is larger than the ${opts.maxBytes}-byte limit`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const stream = decoded(res);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const room = opts.maxBytes - total;
    if (chunk.length > room) {
      res.destroy();
      if (opts.oversize !== 'truncate')
        throw new FetchError(`The response is larger than the ${opts.maxBytes}-byte limit`);
      chunks.push(chunk.subarray(0, room));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    total += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/** Follows redirects by hand, checking each hop; resolves with the final response, its body not yet read. */
async function follow(
  rawUrl: string | URL,
  opts: AddressPolicy & Pick<SafeFetchOptions, 'maxRedirects' | 'headers' | 'resolve'>,
  signal: AbortSignal,
  at: { url?: URL } = {},
): Promise<{ url: URL; res: http.IncomingMessage }> {
  let url = (at.url = checkUrl(rawUrl));
  for (let hop = 0; ; hop++) {
    const address = await pinnedAddress(url.hostname, opts);
    signal.throwIfAborted();
    const res = await request(url, address, opts, signal);
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status) && res.headers.location) {
      res.resume();
      if (hop >= opts.maxRedirects) throw new FetchError(`Too many redirects (more than ${opts.maxRedirects})`);
      url = at.url = checkUrl(new URL(res.headers.location, url));
      continue;
    }
    return { url, res };
  }
}

/** GET `rawUrl` under the address policy, following at most maxRedirects redirects, within timeoutMs in total. */
export async function safeFetch(rawUrl: string | URL, opts: SafeFetchOptions): Promise<SafeFetchResponse> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const at: { url?: URL } = {};
  try {
    const { url, res } = await follow(rawUrl, opts, signal, at);
    const { body, truncated } = await readBody(res, opts);
    return { url: url.href, status: res.statusCode ?? 0, headers: res.headers, body, truncated };
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (timeout.aborted) {
      const err = new FetchError(`Timed out after ${opts.timeoutMs} ms fetching ${at.url?.href ?? String(rawUrl)}`);
      err.name = 'TimeoutError';
      throw err;
    }
    throw e;
  }
}

export type SafeRequestOptions = Omit<SafeFetchOptions, 'maxBytes' | 'oversize'>;

/**
 * The same checked GET, for bodies read as a stream (a large download): resolves with the final response once its
 * headers are in (timeoutMs covers only that wait); the caller reads the body or destroys it. Sent as asked: no
 * compression is requested unless `headers` asks for it, so byte ranges mean what they say.
 */
export async function safeRequest(
  rawUrl: string | URL,
  opts: SafeRequestOptions,
): Promise<{ url: string; response: http.IncomingMessage }> {
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(), opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, waiting.signal]) : waiting.signal;
  try {
    const headers = { 'accept-encoding': 'identity', ...opts.headers };
    const { url, res } = await follow(rawUrl, { ...opts, headers }, signal);
    return { url: url.href, response: res };
  } catch (e) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (waiting.signal.aborted) {
      const err = new FetchError(`Timed out after ${opts.timeoutMs} ms waiting for ${String(rawUrl)}`);
      err.name = 'TimeoutError';
      throw err;
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
