// Bodies read up to a limit, against a real HTTP server on loopback that answers without end (as a hostile model
// server would): reading stops at the limit with ResponseTooLargeError and the server sees the connection dropped;
// a body declared too large is refused before it is read; a body within the limit reads as before. What the model
// layer does with it: lib/llm/endless-answers.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch, limitBody, limitMessages, responseTooLargeIn } from './bounded-body';

let server: http.Server;
let base: string;
/** Bytes the endless answers sent before the client went away. */
let endlessSent = 0;
let endlessClosed: Promise<void>;
let endlessClosed2: Promise<void>;

beforeAll(async () => {
  let closed!: () => void;
  let closed2!: () => void;
  endlessClosed = new Promise((r) => (closed = r));
  endlessClosed2 = new Promise((r) => (closed2 = r));
  server = http.createServer((req, res) => {
    if (req.url === '/small') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    if (req.url === '/empty') return res.writeHead(204).end();
    if (req.url === '/events') {
      // 100 events of 1 KB each (with LF, CRLF and CR blank lines), then one that does not end.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 100; i++) res.write(`data: ${'e'.repeat(1000)}${['\n\n', '\r\n\r\n', '\r\r'][i % 3]}`);
      return res.end(`data: ${'x'.repeat(8192)}`);
    }
    if (req.url === '/declared') {
      res.writeHead(200, { 'content-length': String(1 << 30) });
      return res.write('x'.repeat(1024));
    }
    // "Endless": 64 KB chunks for as long as anyone reads, up to 256 MB (more than any limit here; a reader without
    // one reads it all).
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"object":"list","data":[{"id":"m","padding":"');
    let stop = false;
    res.on('close', () => {
      stop = true;
      (req.url === '/endless2' ? closed2 : closed)();
    });
    const pump = () => {
      while (!stop) {
        if (endlessSent >= 256 * 1024 * 1024) return void res.end();
        endlessSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('limitBody', () => {
  it('stops an endless body at the limit and drops the connection', async () => {
    const limit = 1024 * 1024;
    const e = await limitBody(await fetch(`${base}/endless`), limit)
      .text()
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(responseTooLargeIn(e)?.message).toBe('The answer is larger than the 1 MB limit: it was not read further.');
    await endlessClosed;
    // Whatever sat in the socket's buffers when it was cut, not an endless stream.
    expect(endlessSent).toBeLessThan(limit * 16);
  });

  it('refuses a body whose declared length is over the limit, before reading it', async () => {
    const e = await boundedFetch(
      fetch,
      4096,
    )(`${base}/declared`)
      .then((res) => res.arrayBuffer())
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(responseTooLargeIn(e)).toBeDefined();
  });

  it('hands the same chunks to for await and to getReader(); leaving early drops the connection', async () => {
    const viaReader = (await boundedFetch(fetch, 4096)(`${base}/small`)).body!.getReader();
    const first = await viaReader.read();
    expect([new TextDecoder().decode(first.value), (await viaReader.read()).done]).toEqual(['hello', true]);
    const before = endlessSent;
    let seen = 0;
    for await (const chunk of (await boundedFetch(fetch, 1 << 30)(`${base}/endless2`)).body!) {
      seen += chunk.byteLength;
      if (seen > 256 * 1024) break; // the SDK's stream leaves this way at a stop word
    }
    await endlessClosed2;
    expect(endlessSent - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('passes a body within the limit, its status, headers and URL unchanged; a body-less answer as it is', async () => {
    const res = await boundedFetch(fetch, 4096)(`${base}/small`);
    expect([res.status, res.headers.get('content-type'), res.url]).toEqual([200, 'text/plain', `${base}/small`]);
    expect(await res.text()).toBe('hello');
    expect((await boundedFetch(fetch, 4096)(`${base}/empty`)).status).toBe(204);
  });

  it('cuts an event stream at its limit per event, not for the stream: a long session passes, one long event not', async () => {
    const seen: unknown[] = [];
    const res = limitMessages(await fetch(`${base}/events`), 4096, (e) => seen.push(e));
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const e = await (async () => {
      for (;;) {
        const r = await reader.read();
        if (r.done) return undefined;
        text += r.value;
      }
    })().catch((err: unknown) => err);
    // ~100 KB went through (the chunk that holds the long event's start may hold the last short ones too).
    expect(text.split('data: e').length - 1).toBeGreaterThan(90);
    expect(responseTooLargeIn(e)?.limitBytes).toBe(4096);
    expect(seen).toEqual([e]);
    // Anything but an event stream is counted whole, through text() and json() too.
    await expect(limitMessages(await fetch(`${base}/small`), 4).text()).rejects.toThrow(/4 KB limit|larger than/);
    expect(await limitMessages(await fetch(`${base}/small`), 4096).text()).toBe('hello');
  });
});
