// A local model download followed as Server-Sent Events (lib/models/download-events.ts, what
// app/api/local-models/downloads wires) over real HTTP: LocalModelFiles downloads the suite's tiny GGUF from a slow
// loopback server, and the stream carries its progress as it grows, then its end, and closes.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { LocalModelFiles, type DownloadJob } from '../../lib/models/local-files';
import { handleDownloadEvents } from '../../lib/models/download-events';
import { buildTinyModel } from '../../scripts/tiny-gguf/tiny-model';

const model = Buffer.from(buildTinyModel().bytes);
let dataDir: string;
let files: LocalModelFiles;
let source: http.Server;
let app: http.Server;
const url = (s: http.Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'download-events-'));
  files = new LocalModelFiles(loadConfig({ DATA_DIR: dataDir }));
  // The file in 16 KB pieces 40 ms apart: a download of about 0.7 s, several progress reports long.
  source = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(model.length) });
    let at = 0;
    const tick = setInterval(() => {
      const piece = model.subarray(at, at + 16384);
      at += piece.length;
      if (at >= model.length) {
        clearInterval(tick);
        res.end(piece);
      } else res.write(piece);
    }, 40);
  });
  app = http.createServer((req, res) => {
    const answer = handleDownloadEvents(files, new Request(`http://127.0.0.1${req.url}`));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    void (async () => {
      for await (const chunk of answer.body ?? []) res.write(chunk);
      res.end();
    })();
  });
  await Promise.all([source, app].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
});
afterAll(async () => {
  await Promise.all([source, app].map((s) => new Promise((r) => s.close(r))));
  rmSync(dataDir, { recursive: true, force: true });
});

/** Reads an event stream to its end: the data of each event, parsed. */
async function events(pathname: string): Promise<{ status: number; type: string; jobs: DownloadJob[] }> {
  const res = await fetch(`${url(app)}${pathname}`);
  const text = await res.text();
  const jobs = text
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => JSON.parse(e.slice(6)) as DownloadJob);
  return { status: res.status, type: res.headers.get('content-type') ?? '', jobs };
}

describe('a download’s progress as Server-Sent Events', () => {
  it('streams the progress as it grows, then the end, and closes', async () => {
    const name = await files.start({ url: `${url(source)}/tiny.gguf`, allowHost: true });
    const { status, type, jobs } = await events(`/api/local-models/downloads?name=${name}`);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/event-stream/);
    const running = jobs.filter((j) => j.state === 'running' && j.progress);
    expect(running.length).toBeGreaterThan(1);
    const received = running.map((j) => j.progress!.receivedBytes);
    expect(received).toEqual([...received].sort((a, b) => a - b));
    expect(received[0]).toBeLessThan(model.length);
    expect(jobs.at(-1)).toMatchObject({ name: 'tiny.gguf', state: 'done', progress: { receivedBytes: model.length } });
    expect(jobs.filter((j) => j.state !== 'running')).toHaveLength(1);
  });

  it('answers 404 for a download it does not know', async () => {
    const res = await fetch(`${url(app)}/api/local-models/downloads?name=nothing.gguf`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'No download of "nothing.gguf" is known.',
    );
  });
});
