// A model server that answers without end (a user's connection may name any public server, and a hostile one costs
// its owner nothing), against a real HTTP server on loopback: the chat stream, the model list and the images endpoint
// each stop reading at their limit and say so, instead of reading until the process runs out of memory (28 MB of
// 64 KB deltas took the app's server down). An answer is cut at MODEL_ANSWER_MAX_CHARS of what it says, a response
// at MODEL_RESPONSE_MAX_BYTES on the wire whatever it holds. The server stops after 256 MB: more than any limit here.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateImage } from './images';
import { MODEL_ANSWER_MAX_CHARS, MODEL_RESPONSE_MAX_BYTES, OpenAIChatModel } from './openai-model';
import { listServerModels } from './server-models';
import { writeEndless } from '../../test/support/endless-response';

const STOP_AFTER = 256 * 1024 * 1024;
let server: http.Server;
let base: string;

/** Writes `head`, then `piece` until the client goes away or STOP_AFTER bytes went, then `tail`. */
const endless = (res: http.ServerResponse, head: string, piece: Buffer, tail = '') =>
  writeEndless(res, head, piece, tail, STOP_AFTER);

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  Buffer.from(
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', ...extra, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
  );
/** 64 KB of text. */
const DELTA = chunk({ content: 'y'.repeat(64 * 1024) });
/** 64 KB of nothing to say: a field no client reads. */
const PADDING = chunk({}, { padding: 'p'.repeat(64 * 1024) });
const STREAM_END =
  'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
  'data: [DONE]\n\n';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    const padding = Buffer.alloc(64 * 1024, 0x78);
    if (req.url?.endsWith('/chat/completions')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (req.url.startsWith('/padding/')) return endless(res, '', PADDING, STREAM_END);
      // One event that never ends: no blank line, so no reader can hand any of it on.
      if (req.url.startsWith('/one-event/')) return endless(res, 'data: {"pad":"', padding, `"}\n\n${STREAM_END}`);
      if (!req.url.startsWith('/long/')) return endless(res, '', DELTA, STREAM_END);
      // A long answer that ends: just under the limit.
      for (let sent = 0; sent + 64 * 1024 <= MODEL_ANSWER_MAX_CHARS; sent += 64 * 1024) res.write(DELTA);
      return res.end(STREAM_END);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.endsWith('/models'))
      return endless(res, '{"object":"list","data":[{"id":"m","pad":"', padding, '"}]}');
    return endless(res, '{"data":[{"b64_json":"', padding, '"}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a model server that answers without end', () => {
  it(`an answer is cut at ${MODEL_ANSWER_MAX_CHARS.toLocaleString('en')} characters: not retried, said plainly`, async () => {
    const model = new OpenAIChatModel({ baseURL: base, model: 'endless', defaults: { maxRetries: 2 } });
    let shown = 0;
    const e = await model
      .chat({ messages: [{ role: 'user', content: 'hi' }] }, (event) => {
        if (event.type === 'text') shown += event.text.length;
      })
      .then(
        () => undefined,
        (err: unknown) => err as Error & { code?: string; retryable?: boolean },
      );
    expect(e?.message).toBe("The model's answer passed 1,000,000 characters without ending: it was cut there.");
    expect(e).toMatchObject({ code: 'answer-too-long', retryable: false });
    // What came before the cut was shown as it came.
    expect(shown).toBeGreaterThan(MODEL_ANSWER_MAX_CHARS - 64 * 1024);
  }, 120_000);

  it('an answer just under the limit is an answer', async () => {
    const model = new OpenAIChatModel({ baseURL: base.replace('/v1', '/long/v1'), model: 'long' });
    const result = await model.chat({ messages: [{ role: 'user', content: 'a long one, please' }] });
    expect(result.finishReason).toBe('stop');
    expect(String(result.messages[0]!.content).length).toBe(15 * 64 * 1024);
  }, 120_000);

  it(`a response saying nothing is cut at ${MODEL_RESPONSE_MAX_BYTES / 1024 / 1024} MB on the wire`, async () => {
    const model = new OpenAIChatModel({ baseURL: base.replace('/v1', '/padding/v1'), model: 'padding' });
    const before = process.memoryUsage().heapUsed;
    const e = await model.chat({ messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (err: unknown) => err as Error & { code?: string; retryable?: boolean },
    );
    expect(e?.message).toBe("The model server's answer passed 32 MB without ending: it was cut there.");
    expect(e).toMatchObject({ code: 'response-too-large', retryable: false });
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(256 * 1024 * 1024);
  }, 120_000);

  it(`one event without end is cut at ${MODEL_RESPONSE_MAX_BYTES / 1024 / 1024} MB on the wire`, async () => {
    // The SDK's reader copied all it held on each network read (bench:sse: 24 s for 4 MB in 1 KB reads); ours
    // holds the event as text until the bound cuts it.
    const model = new OpenAIChatModel({ baseURL: base.replace('/v1', '/one-event/v1'), model: 'one-event' });
    const before = process.memoryUsage().heapUsed;
    const e = await model.chat({ messages: [{ role: 'user', content: 'hi' }] }).then(
      () => undefined,
      (err: unknown) => err as Error & { code?: string; retryable?: boolean },
    );
    expect(e?.message).toBe("The model server's answer passed 32 MB without ending: it was cut there.");
    expect(e).toMatchObject({ code: 'response-too-large', retryable: false });
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(256 * 1024 * 1024);
  }, 120_000);

  it('a model list is read up to 16 MB and said to be none', async () => {
    const result = await listServerModels(base, { timeoutMs: 60_000 });
    expect(result).toMatchObject({ ok: false, problem: 'not-openai' });
    expect(result.ok ? '' : result.message).toMatch(/answered GET \/v1\/models with more than 16 MB: that is no list/);
  }, 60_000);

  it('an image answer is read up to what an image within the limit takes in base64', async () => {
    const e = await generateImage(
      { baseURL: base, model: 'img', connection: 'Endless' },
      { prompt: 'a square', maxBytes: 1024 * 1024 },
    ).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(e?.message).toBe("Endless's answer is larger than an image within the image limit");
  }, 60_000);
});
