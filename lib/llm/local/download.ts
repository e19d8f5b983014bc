// Downloads a GGUF into the models folder: streamed to <name>.part with progress, resumed with a byte range after a
// cut connection (and in a later call after a stop), started over cleanly when the server ignores the range or the
// file changed, checked by its GGUF header, then renamed into place. A file that is not a GGUF or is truncated is
// refused with the reason and removed.
//
// Every request goes through lib/net's guard (each host resolved once and pinned, every redirect hop checked):
// downloads reach public addresses only. The catalog needs no exception (huggingface.co and its CDN are public);
// a user who points at a server on their own network allows that host explicitly (downloadPolicy).
import { mkdir, open as openFile, rename, rm, stat, statfs, truncate, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AddressPolicy } from '../../net/address-policy';
import { FetchError, safeRequest, type Resolver } from '../../net/safe-fetch';
import { formatBytes } from '../../protocol/bytes';
import { GgufFormatError, readGgufHeader } from './gguf-header';
import {
  modelFileName,
  PART_META_SUFFIX,
  PART_SUFFIX,
  readPartMeta,
  summarize,
  type LocalModelFile,
  type PartMeta,
} from './models-dir';
import { isErrorNamed } from '../../protocol/errors';

export interface DownloadProgress {
  /** Bytes in the .part file so far. */
  receivedBytes: number;
  /** From the server (Content-Length / Content-Range), when it says. */
  totalBytes?: number;
  /** Over the last few seconds. */
  bytesPerSecond: number;
  secondsLeft?: number;
  /** Set when this attempt continued an earlier one (after a cut, or a stopped download): where it picked up. */
  resumedFrom?: number;
  /** 1 for the first request; each resume after a cut adds one. */
  attempt: number;
}

export interface DownloadModelOptions {
  url: string;
  modelsDir: string;
  /** File name to save as (default: from the URL); made safe and given a .gguf ending. */
  name?: string;
  /** Which addresses may be fetched: the server's policy (lib/config web.fetch), see downloadPolicy. */
  policy: AddressPolicy;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Requests in all, resumes after cuts included (default 6). */
  maxAttempts?: number;
  /** Longest silence inside the body before the connection counts as cut (default 60 s). */
  idleTimeoutMs?: number;
  /** Time allowed until the server answers (default 30 s). */
  connectTimeoutMs?: number;
  maxRedirects?: number;
  /** Least time between progress events (default 250 ms; the first and last are always sent). */
  progressIntervalMs?: number;
  /** Name resolution (tests); the system resolver by default. */
  resolve?: Resolver;
}

export type DownloadProblem =
  | 'bad-url'
  | 'exists'
  | 'busy'
  | 'http'
  | 'network'
  | 'disk'
  | 'aborted'
  | 'not-gguf'
  | 'truncated'
  | 'unsupported'
  | 'corrupt'
  | 'blocked';

export class DownloadError extends Error {
  override name = 'DownloadError';
  constructor(
    readonly problem: DownloadProblem,
    message: string,
    opts?: { cause?: unknown },
  ) {
    super(message, opts);
  }
}

/** The fetch policy for a download: the server's, plus the URL's host when the user explicitly allowed it. */
export function downloadPolicy(base: AddressPolicy, userAllowedUrl?: string): AddressPolicy {
  if (!userAllowedUrl) return base;
  return { ...base, allowHosts: [...base.allowHosts, new URL(userAllowedUrl).hostname] };
}

const active = new Set<string>();

class RateMeter {
  private samples: { t: number; bytes: number }[] = [];
  add(bytes: number): number {
    const t = performance.now();
    this.samples.push({ t, bytes });
    while (this.samples.length > 2 && t - this.samples[0]!.t > 5000) this.samples.shift();
    const first = this.samples[0]!;
    const seconds = (t - first.t) / 1000;
    return seconds > 0 ? (bytes - first.bytes) / seconds : 0;
  }
}

interface Attempt {
  response: IncomingMessage;
  /** Bytes of the .part file the body continues (0: the body is the whole file). */
  from: number;
  totalBytes?: number;
}

function parseContentRange(value: string | undefined): { start: number; total?: number } | undefined {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(value?.trim() ?? '');
  if (!m) return undefined;
  return { start: Number(m[1]), ...(m[2] !== '*' ? { total: Number(m[2]) } : {}) };
}

function httpMessage(status: number, url: string): string {
  const host = new URL(url).host;
  if (status === 401 || status === 403)
    return `${host} refused the download (HTTP ${status}): the file may need a login or an access token.`;
  if (status === 404) return `${host} has no such file (HTTP 404): check the URL.`;
  if (status === 429) return `${host} is limiting requests (HTTP 429): try again later.`;
  return `${host} answered HTTP ${status} instead of the file.`;
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/** Downloads `url` into the models folder and returns the new model file; see the top of this file. */
export async function downloadModel(opts: DownloadModelOptions): Promise<LocalModelFile> {
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    throw new DownloadError('bad-url', `Not a valid URL: ${opts.url}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new DownloadError(
      'bad-url',
      `Only http and https URLs can be downloaded (got ${url.protocol.slice(0, -1)}).`,
    );
  if (url.username || url.password)
    throw new DownloadError('bad-url', 'A URL with a user name or password in it is not downloaded.');
  const name = modelFileName(opts.name ?? url.pathname);
  const target = path.join(opts.modelsDir, name);
  const part = target + PART_SUFFIX;
  const metaFile = target + PART_META_SUFFIX;
  if (active.has(target)) throw new DownloadError('busy', `${name} is already being downloaded.`);
  if (await sizeOf(target)) throw new DownloadError('exists', `${name} is already in the models folder.`);
  active.add(target);
  try {
    await mkdir(opts.modelsDir, { recursive: true });
    let meta = await readPartMeta(part);
    if (meta && meta.url !== opts.url) {
      // An unfinished download of another URL under the same name: it cannot be continued.
      await rm(part, { force: true });
      meta = undefined;
    }
    const maxAttempts = opts.maxAttempts ?? 6;
    const rate = new RateMeter();
    let lastProgress = -Infinity;
    for (let attempt = 1; ; attempt++) {
      if (opts.signal?.aborted)
        throw new DownloadError('aborted', `The download of ${name} was stopped; it can be resumed.`);
      const have = meta ? await sizeOf(part) : 0;
      let outcome: 'complete' | 'cut';
      let cause: unknown;
      let a: Attempt | undefined;
      try {
        a = await open(opts, have, meta);
        meta = {
          url: opts.url,
          ...(a.response.headers.etag ? { etag: String(a.response.headers.etag) } : {}),
          ...(a.response.headers['last-modified'] ? { lastModified: String(a.response.headers['last-modified']) } : {}),
          ...(a.totalBytes !== undefined ? { totalBytes: a.totalBytes } : {}),
        };
        await writeFile(metaFile, JSON.stringify(meta));
        if (a.from === 0) await writeFile(part, '');
        else if ((await sizeOf(part)) !== a.from) await truncate(part, a.from);
        if (a.totalBytes !== undefined) await checkDiskSpace(opts.modelsDir, a.totalBytes - a.from, name);
        let received = a.from;
        const report = (force: boolean) => {
          const now = performance.now();
          const bytesPerSecond = rate.add(received);
          if (!force && now - lastProgress < (opts.progressIntervalMs ?? 250)) return;
          lastProgress = now;
          const total = a!.totalBytes;
          opts.onProgress?.({
            receivedBytes: received,
            ...(total !== undefined ? { totalBytes: total } : {}),
            bytesPerSecond,
            ...(total !== undefined && bytesPerSecond > 0
              ? { secondsLeft: Math.max(0, (total - received) / bytesPerSecond) }
              : {}),
            ...(a!.from > 0 ? { resumedFrom: a!.from } : {}),
            attempt,
          });
        };
        report(true);
        outcome = await receive(a.response, part, opts, (n) => {
          received += n;
          report(false);
        });
        report(true);
        if (outcome === 'complete' && a.totalBytes !== undefined && received < a.totalBytes) outcome = 'cut';
      } catch (e) {
        if (opts.signal?.aborted)
          throw new DownloadError('aborted', `The download of ${name} was stopped; it can be resumed.`, { cause: e });
        if (isErrorNamed<DownloadError>(e, 'DownloadError')) throw e;
        if ((e as Error)?.name === 'BlockedAddressError')
          throw new DownloadError('blocked', (e as Error).message, { cause: e });
        if (isErrorNamed<FetchError>(e, 'FetchError') && /redirect/i.test(e.message))
          throw new DownloadError('http', e.message, { cause: e });
        outcome = 'cut';
        cause = e;
      } finally {
        a?.response.destroy();
      }
      if (outcome === 'complete') break;
      if (attempt >= maxAttempts) {
        const why = cause instanceof Error ? `: ${cause.message}` : '';
        throw new DownloadError(
          'network',
          `The download of ${name} kept failing (${attempt} attempts${why}); what arrived is kept, try again to resume.`,
          { cause },
        );
      }
      await delay(Math.min(5000, 200 * 2 ** (attempt - 1)), opts.signal).catch((e: unknown) => {
        throw new DownloadError('aborted', `The download of ${name} was stopped; it can be resumed.`, { cause: e });
      });
    }

    let header;
    try {
      header = await readGgufHeader(part);
    } catch (e) {
      await rm(part, { force: true });
      await rm(metaFile, { force: true });
      if (isErrorNamed<GgufFormatError>(e, 'GgufFormatError'))
        throw new DownloadError(e.problem, `${name} was refused and removed. ${e.message}`, { cause: e });
      throw e;
    }
    await rename(part, target);
    await rm(metaFile, { force: true });
    const info = await stat(target);
    return {
      name,
      file: target,
      sizeBytes: info.size,
      modifiedAt: info.mtime.toISOString(),
      summary: summarize(header),
    };
  } finally {
    active.delete(target);
  }
}

/** One request: a range from `have` when there is something to continue, else the whole file. */
async function open(opts: DownloadModelOptions, have: number, meta: PartMeta | undefined): Promise<Attempt> {
  const validator = meta?.etag && !meta.etag.startsWith('W/') ? meta.etag : meta?.lastModified;
  const headers: Record<string, string> = {};
  if (have > 0) {
    headers.range = `bytes=${have}-`;
    if (validator) headers['if-range'] = validator;
  }
  const { url, response } = await safeRequest(opts.url, {
    ...opts.policy,
    headers,
    timeoutMs: opts.connectTimeoutMs ?? 30_000,
    maxRedirects: opts.maxRedirects ?? 10,
    signal: opts.signal,
    resolve: opts.resolve,
  });
  const status = response.statusCode ?? 0;
  const length = Number(response.headers['content-length']);
  if (status === 206 && have > 0) {
    const range = parseContentRange(response.headers['content-range']);
    if (range?.start === have) return { response, from: have, totalBytes: range.total };
    response.destroy(); // a range that does not continue the file: start over
    return open(opts, 0, undefined);
  }
  if (status === 416 && have > 0) {
    response.destroy();
    const range = /\/(\d+)$/.exec(String(response.headers['content-range'] ?? ''));
    if (range && Number(range[1]) === have) return { response: emptyBody(), from: have, totalBytes: have };
    return open(opts, 0, undefined);
  }
  if (status === 200) {
    // Also the answer of a server that ignores ranges, or of an If-Range that no longer matches: all from byte 0.
    return { response, from: 0, ...(Number.isFinite(length) ? { totalBytes: length } : {}) };
  }
  response.destroy();
  throw new DownloadError('http', httpMessage(status, url));
}

/** The body of a file that was already whole (the server said 416 for the byte after its end). */
function emptyBody(): IncomingMessage {
  return Object.assign(Readable.from([]), { headers: {}, statusCode: 206 }) as unknown as IncomingMessage;
}

/** Appends the body to the .part file, each chunk on disk before the next is read (so a cut loses nothing that
 *  arrived); 'cut' when the connection broke or went silent. */
async function receive(
  body: IncomingMessage,
  part: string,
  opts: DownloadModelOptions,
  onBytes: (n: number) => void,
): Promise<'complete' | 'cut'> {
  const idleMs = opts.idleTimeoutMs ?? 60_000;
  let idle: NodeJS.Timeout | undefined;
  let silent = false;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      silent = true;
      body.destroy(new Error(`no data for ${idleMs} ms`));
    }, idleMs);
  };
  const stop = () => body.destroy(opts.signal?.reason);
  opts.signal?.addEventListener('abort', stop, { once: true });
  const out = await openFile(part, 'a');
  arm();
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      arm();
      await out.write(chunk);
      onBytes(chunk.length);
    }
    return 'complete';
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    if (silent || isCut(e)) return 'cut';
    throw e;
  } finally {
    clearTimeout(idle);
    opts.signal?.removeEventListener('abort', stop);
    await out.close();
  }
}

function isCut(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException)?.code ?? '';
  const text = `${code} ${(e as Error)?.message ?? ''}`;
  return /ECONNRESET|ERR_STREAM_PREMATURE_CLOSE|EPIPE|ETIMEDOUT|aborted|socket hang up|terminated/i.test(text);
}

async function checkDiskSpace(dir: string, needed: number, name: string): Promise<void> {
  let free: number;
  try {
    const s = await statfs(dir);
    free = s.bavail * s.bsize;
  } catch {
    return; // a file system that cannot say: the write will fail on its own if it must
  }
  if (needed > free)
    throw new DownloadError(
      'disk',
      `Not enough disk space for ${name}: it needs ${formatBytes(needed)} more, ${formatBytes(free)} is free.`,
    );
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
