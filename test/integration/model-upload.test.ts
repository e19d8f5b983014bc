// Uploading a GGUF into DATA_DIR/models through the upload route's handler (lib/models/upload-http.ts, what
// app/api/local-models wires) behind a real HTTP server on loopback, with a model the suite writes itself: the body
// streams to disk and the file is listed ready to use; a file that is not a whole GGUF is refused with its reason;
// an oversize body is cut (declared or not); a client gone mid-file; and in every refusal nothing is left on disk.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { listLocalModels } from '../../lib/llm/local/models-dir';
import { LocalModelFiles } from '../../lib/models/local-files';
import { handleLocalModelUpload } from '../../lib/models/upload-http';
import { buildTinyModel } from '../../scripts/tiny-gguf/tiny-model';

const model = buildTinyModel().bytes;
const LIMIT = model.length + 1024;

let dataDir: string;
let files: LocalModelFiles;
let server: http.Server;
let base: string;
/** Bytes the handler was given of each request's body, as it read them. */
let received = 0;

/** The route handler behind node's HTTP server, as Next runs it: the request body a web stream, read as it comes. */
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.on('data', (b: Buffer) => (received += b.length));
    const body = req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null;
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body,
      duplex: 'half',
    } as RequestInit);
    void handleLocalModelUpload(files, request).then(async (answer) => {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'model-upload-'));
  files = new LocalModelFiles(
    loadConfig({ DATA_DIR: dataDir, LOCAL_MODEL_UPLOAD_MAX_BYTES: String(LIMIT) }) as ReturnType<typeof loadConfig>,
  );
  received = 0;
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const inFolder = () => {
  try {
    return readdirSync(files.dir);
  } catch {
    return [];
  }
};

interface Answer {
  status: number;
  body: {
    model?: { name: string; sizeBytes: number; summary?: { architecture: string } };
    error?: { message: string };
  };
}

/** POSTs `bytes` in 16 KB pieces, as a browser sends a file: with a Content-Length unless `chunked`. */
function send(name: string, bytes: Uint8Array, opts: { chunked?: boolean; declare?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
    if (!opts.chunked) headers['content-length'] = String(opts.declare ?? bytes.length);
    const req = http.request(`${base}/api/local-models?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers,
      agent: false,
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString()) as Answer['body'] }),
      );
    });
    req.on('error', reject);
    req.flushHeaders();
    void (async () => {
      for (let at = 0; at < bytes.length && !req.destroyed; at += 16384) {
        if (!req.write(bytes.subarray(at, at + 16384))) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(() => undefined);
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
}

describe('uploading a GGUF into the models folder', () => {
  it('streams a whole GGUF to disk and lists it, read from its header, ready to use', async () => {
    const answer = await send('Tiny Model.gguf', model);
    expect(answer.status).toBe(201);
    expect(answer.body.model).toMatchObject({
      name: 'Tiny_Model.gguf',
      sizeBytes: model.length,
      summary: { architecture: 'llama' },
    });
    expect(inFolder()).toEqual(['Tiny_Model.gguf']);
    const { models } = await listLocalModels(files.dir);
    expect(models.map((m) => [m.name, m.summary?.architecture])).toEqual([['Tiny_Model.gguf', 'llama']]);
    expect((await files.view()).uploadMaxBytes).toBe(LIMIT);
  });

  it('refuses a file that is not a GGUF with its reason, from its first bytes, and keeps nothing', async () => {
    // Longer than the limit: refused for what it is as its first bytes arrive, not for its size at the end.
    const page = Buffer.from(`<!DOCTYPE html><html><body>Sign in to continue</body></html>${'x'.repeat(2 * LIMIT)}`);
    const answer = await send('model.gguf', page, { chunked: true });
    expect(answer.status).toBe(422);
    expect(answer.body.error?.message).toBe(
      'model.gguf was refused. Not a GGUF file: it is a web page (it starts with "<!DOCTYP"), perhaps a login or error page instead of the model.',
    );
    expect(inFolder()).toEqual([]);
  });

  it('refuses a truncated GGUF (the magic is right, the tensors are cut) and keeps nothing', async () => {
    const answer = await send('cut.gguf', model.subarray(0, Math.floor(model.length * 0.6)));
    expect(answer.status).toBe(422);
    expect(answer.body.error?.message).toMatch(/^cut\.gguf was refused\. .*present/);
    expect(inFolder()).toEqual([]);
  });

  it('cuts a body over LOCAL_MODEL_UPLOAD_MAX_BYTES sent without a length: 413, the limit said, nothing kept', async () => {
    const big = Buffer.concat([model, Buffer.alloc(LIMIT)]);
    const answer = await send('big.gguf', big, { chunked: true });
    expect(answer.status).toBe(413);
    expect(answer.body.error?.message).toMatch(/^big\.gguf was refused: it is larger than the .* upload limit/);
    expect(answer.body.error?.message).toContain('LOCAL_MODEL_UPLOAD_MAX_BYTES');
    expect(inFolder()).toEqual([]);
  });

  it('refuses a declared Content-Length over the limit before writing a byte', async () => {
    const answer = await send('big.gguf', Buffer.alloc(0), { declare: LIMIT + 1 });
    expect(answer.status).toBe(413);
    expect(inFolder()).toEqual([]);
  });

  it('a client gone mid-file leaves no temp file, and the same name can be uploaded after', async () => {
    const req = http.request(`${base}/api/local-models?name=gone.gguf`, {
      method: 'POST',
      headers: { 'content-length': String(model.length) },
      agent: false,
    });
    req.on('error', () => undefined);
    req.write(model.subarray(0, 100_000));
    await until(() => received >= 100_000);
    expect(inFolder()).toEqual(['gone.gguf.upload']);
    req.destroy();
    await until(() => inFolder().length === 0);
    expect(inFolder()).toEqual([]);
    const again = await send('gone.gguf', model);
    expect(again.status).toBe(201);
    expect(inFolder()).toEqual(['gone.gguf']);
  });

  it('refuses a name already in the folder (409), and a request without a name (400)', async () => {
    expect((await send('a.gguf', model)).status).toBe(201);
    const taken = await send('a.gguf', model);
    expect(taken.status).toBe(409);
    expect(taken.body.error?.message).toBe('a.gguf is already in the models folder.');
    const nameless = await send('', model);
    expect(nameless.status).toBe(400);
    expect(inFolder()).toEqual(['a.gguf']);
  });
});
