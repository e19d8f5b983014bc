// The images endpoint's refusal, against a real HTTP server on loopback that repeats the key it was sent, as some
// providers do in a 401: the key (whole, or masked with its ends showing) never reaches the error that the model,
// the page and every user of the connection read.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateImage } from './images';

const KEY = 'sk-proj-imagesKey0123456789abcdefWXYZ';
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    const sent = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    res.writeHead(401, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${sent}, also known as ${sent.slice(0, 8)}****${sent.slice(-4)}.`,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('generateImage', () => {
  it('says what the provider refused without the key it repeated', async () => {
    const e = await generateImage(
      { baseURL: base, apiKey: KEY, model: 'img', connection: 'Environment' },
      { prompt: 'a square', maxBytes: 1024 * 1024 },
    ).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(e?.message).toBe(
      'Environment answered HTTP 401 to the image request: Incorrect API key provided: [key hidden], also known as [key hidden].',
    );
  });
});
