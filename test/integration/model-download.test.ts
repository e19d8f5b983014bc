// Downloading a GGUF from a real HTTP server on loopback serving a model the suite writes: progress, a connection
// the server cuts mid-file (resumed with a byte range), a server that ignores ranges (started over), a stopped
// download resumed by a later call, and the files that must be refused (a web page, a truncated model).
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  downloadModel,
  downloadPolicy,
  DownloadError,
  type DownloadModelOptions,
  type DownloadProgress,
} from '../../lib/llm/local/download';
import { listLocalModels } from '../../lib/llm/local/models-dir';
import { buildTinyModel } from '../../scripts/tiny-gguf/tiny-model';

const model = buildTinyModel().bytes;
const ETAG = `"${createHash('sha256').update(model).digest('hex').slice(0, 16)}"`;
const hits: { path: string; range?: string; ifRange?: string }[] = [];
const served = new Map<string, number>();
let server: http.Server;
let base: string;

/** Serves `bytes` as a static file server would (ranges with If-Range), optionally misbehaving. */
function sendFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  bytes: Buffer,
  opts: { cutAt?: number; ignoreRange?: boolean; slow?: boolean } = {},
) {
  let start = 0;
  const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const rangeOk = m && !opts.ignoreRange && (!req.headers['if-range'] || req.headers['if-range'] === ETAG);
  if (rangeOk) {
    start = Number(m[1]);
    if (start >= bytes.length) {
      res.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
      return;
    }
    res.writeHead(206, {
      'content-type': 'application/octet-stream',
      'content-length': bytes.length - start,
      'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}`,
      etag: ETAG,
      'accept-ranges': 'bytes',
    });
  } else {
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': bytes.length,
      etag: ETAG,
      ...(opts.ignoreRange ? {} : { 'accept-ranges': 'bytes' }),
    });
  }
  const body = bytes.subarray(start);
  if (opts.cutAt !== undefined) {
    // The connection closes after the first part: the client gets those bytes, then an early end of the body.
    res.write(body.subarray(0, opts.cutAt), () => res.socket?.end());
    return;
  }
  if (!opts.slow) return res.end(body);
  let at = 0;
  const tick = setInterval(() => {
    if (res.destroyed) return clearInterval(tick);
    const piece = body.subarray(at, at + 8192);
    at += piece.length;
    if (at >= body.length) {
      clearInterval(tick);
      res.end(piece);
    } else res.write(piece);
  }, 15);
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push({
      path: p,
      ...(req.headers.range ? { range: req.headers.range } : {}),
      ...(req.headers['if-range'] ? { ifRange: String(req.headers['if-range']) } : {}),
    });
    const n = (served.get(p) ?? 0) + 1;
    served.set(p, n);
    const cut = Math.floor(model.length * 0.4);
    if (p === '/m/tiny.gguf') return sendFile(req, res, model, n === 1 ? { cutAt: cut } : {});
    if (p === '/m/no-ranges.gguf')
      return sendFile(req, res, model, { ignoreRange: true, ...(n === 1 ? { cutAt: cut } : {}) });
    if (p === '/m/slow.gguf') return sendFile(req, res, model, { slow: true });
    if (p === '/m/whole.gguf') return sendFile(req, res, model);
    if (p === '/m/short.gguf') return sendFile(req, res, model.subarray(0, Math.floor(model.length * 0.6)));
    if (p === '/m/page.gguf') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!DOCTYPE html><html><body><h1>Sign in to download</h1></body></html>');
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  hits.length = 0;
  served.clear();
});

const loopbackAllowed = { allowPrivate: false, allowHosts: ['127.0.0.1'] };
const freshDir = () => mkdtempSync(path.join(tmpdir(), 'models-'));
const options = (dir: string, file: string, extra: Partial<DownloadModelOptions> = {}): DownloadModelOptions => ({
  url: `${base}/m/${file}`,
  modelsDir: dir,
  policy: loopbackAllowed,
  progressIntervalMs: 0,
  ...extra,
});
const failure = async (p: Promise<unknown>): Promise<DownloadError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DownloadError);
  return e as DownloadError;
};

describe('downloadModel', () => {
  it('reports progress, resumes after the server cuts the connection, checks the file and keeps it', async () => {
    const dir = freshDir();
    const progress: DownloadProgress[] = [];
    const file = await downloadModel(options(dir, 'tiny.gguf', { onProgress: (p) => progress.push(p) }));

    expect(readFileSync(file.file).equals(model)).toBe(true);
    expect(file).toMatchObject({ name: 'tiny.gguf', sizeBytes: model.length, summary: { architecture: 'llama' } });
    expect(readdirSync(dir)).toEqual(['tiny.gguf']); // no .part or .part.json left

    // Two requests: the first cut at 40%, the second a range from where the file ended, tied to the same version.
    expect(hits).toHaveLength(2);
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(hits[1]!.range ?? '')?.[1]);
    expect(resumedAt).toBeGreaterThan(0);
    expect(resumedAt).toBeLessThanOrEqual(Math.floor(model.length * 0.4));
    expect(hits[1]!.ifRange).toBe(ETAG);

    expect(progress.every((p) => p.totalBytes === model.length)).toBe(true);
    expect(progress.some((p) => p.attempt === 1 && p.receivedBytes > 0)).toBe(true);
    const resumed = progress.filter((p) => p.attempt === 2);
    expect(resumed[0]).toMatchObject({ resumedFrom: resumedAt, receivedBytes: resumedAt });
    expect(progress.at(-1)).toMatchObject({ receivedBytes: model.length, attempt: 2 });
    for (let i = 1; i < progress.length; i++)
      if (progress[i]!.attempt === progress[i - 1]!.attempt)
        expect(progress[i]!.receivedBytes).toBeGreaterThanOrEqual(progress[i - 1]!.receivedBytes);
    expect(progress.some((p) => p.bytesPerSecond > 0 && p.secondsLeft !== undefined)).toBe(true);
  });

  it('starts over cleanly when the server ignores the range', async () => {
    const dir = freshDir();
    const file = await downloadModel(options(dir, 'no-ranges.gguf'));
    expect(hits.map((h) => Boolean(h.range))).toEqual([false, true]); // asked for a range, got the whole file
    expect(readFileSync(file.file).equals(model)).toBe(true); // not the first 40% twice
  });

  it('keeps a stopped download, and a later call resumes it', async () => {
    const dir = freshDir();
    const stop = new AbortController();
    const error = await failure(
      downloadModel(
        options(dir, 'slow.gguf', {
          signal: stop.signal,
          onProgress: (p) => {
            if (p.receivedBytes > 30_000) stop.abort();
          },
        }),
      ),
    );
    expect(error.problem).toBe('aborted');
    const { models, partial } = await listLocalModels(dir);
    expect(models).toEqual([]);
    expect(partial).toHaveLength(1);
    expect(partial[0]).toMatchObject({ name: 'slow.gguf', totalBytes: model.length, url: `${base}/m/slow.gguf` });
    const kept = partial[0]!.receivedBytes; // every byte reported had reached the disk
    expect(kept).toBeGreaterThan(30_000);
    expect(kept).toBeLessThan(model.length);

    const file = await downloadModel(options(dir, 'slow.gguf'));
    expect(hits.at(-1)).toMatchObject({ range: `bytes=${kept}-`, ifRange: ETAG });
    expect(readFileSync(file.file).equals(model)).toBe(true);
  });

  it('refuses a web page served in place of the model, and removes it', async () => {
    const dir = freshDir();
    const error = await failure(downloadModel(options(dir, 'page.gguf')));
    expect(error.problem).toBe('not-gguf');
    expect(error.message).toMatch(/page\.gguf was refused and removed\. Not a GGUF file: it is a web page/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a truncated model (the server sent less than the file), and removes it', async () => {
    const dir = freshDir();
    const error = await failure(downloadModel(options(dir, 'short.gguf')));
    expect(error.problem).toBe('truncated');
    expect(error.message).toMatch(/short\.gguf was refused and removed\. The file is truncated: .*\(59\.9% present\)/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('goes through the address guard: loopback is refused unless the host is allowed explicitly', async () => {
    const dir = freshDir();
    const url = `${base}/m/whole.gguf`;
    const strict = { allowPrivate: false, allowHosts: [] };
    const error = await failure(downloadModel({ url, modelsDir: dir, policy: strict }));
    expect(error.problem).toBe('blocked');
    expect(error.message).toMatch(/Refused to fetch 127\.0\.0\.1: loopback address/);
    expect(hits).toEqual([]); // nothing reached the server

    const file = await downloadModel({ url, modelsDir: dir, policy: downloadPolicy(strict, url) });
    expect(file.sizeBytes).toBe(model.length);
  });

  it('says what the server answered, and refuses to overwrite a model already there', async () => {
    const dir = freshDir();
    const missing = await failure(downloadModel(options(dir, 'nothing-here.gguf')));
    expect(missing.problem).toBe('http');
    expect(missing.message).toMatch(/has no such file \(HTTP 404\)/);
    expect(existsSync(path.join(dir, 'nothing-here.gguf.part'))).toBe(false);

    for (const url of ['ftp://example.org/a.gguf', 'not a url', 'https://user:pw@example.org/a.gguf'])
      expect((await failure(downloadModel({ url, modelsDir: dir, policy: loopbackAllowed }))).problem).toBe('bad-url');

    await downloadModel(options(dir, 'whole.gguf'));
    const again = await failure(downloadModel(options(dir, 'whole.gguf')));
    expect(again).toMatchObject({ problem: 'exists', message: 'whole.gguf is already in the models folder.' });
  });
});
