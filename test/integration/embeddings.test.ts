// A connection's embeddings (lib/llm/embeddings.ts through OpenAIChatModel.embedder) over real HTTP: the scripted
// model server's /v1/embeddings, and a bare server for the answers it never gives (a malformed one, a busy one).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChatModel } from '../../lib/llm';
import { standInEmbedding } from '../../scripts/model-server/embed';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';

let server: ModelServer;
let chatOnly: ModelServer;
let bare: Server;
let bareUrl: string;
type Answer = { status: number; body: unknown; headers?: Record<string, string> };
let answers: ((input: string[]) => Answer)[] = [];
let bareCalls = 0;

beforeAll(async () => {
  server = await createModelServer({ apiKey: 'sk-test' });
  chatOnly = await createModelServer({ embeddings: false });
  bare = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      bareCalls++;
      const { input } = JSON.parse(raw) as { input: string[] };
      const answer: Answer = (answers.shift() ?? (() => ({ status: 500, body: {} })))(input);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await server.close();
  await chatOnly.close();
  await new Promise((resolve) => bare.close(resolve));
});
beforeEach(() => {
  server.reset();
  chatOnly.reset();
  answers = [];
  bareCalls = 0;
});

const model = (url: string, apiKey = 'k') =>
  createChatModel({ model: 'chat-model', baseURL: url, apiKey, maxRetries: 1, fncallMode: 'native' });

describe('embeddings through a connection', () => {
  it('asks its server in batches of 64, with its key and the embedding model named, and keeps the order', async () => {
    const texts = Array.from({ length: 100 }, (_, i) => `text number ${i} about ${i % 2 ? 'ships' : 'taxes'}`);
    const embedder = model(server.url, 'sk-test').embedder!('embed-model');
    expect(embedder.id).toBe(`${server.url}#embed-model`);
    const vectors = await embedder.embed(texts);
    const calls = server.requests.filter((r) => r.path === '/v1/embeddings');
    expect(calls.map((c) => (c.body as { input: string[] }).input.length)).toEqual([64, 36]);
    expect(calls.every((c) => c.headers.authorization === 'Bearer sk-test')).toBe(true);
    expect(calls[0]!.body).toMatchObject({ model: 'embed-model', encoding_format: 'float' });
    expect(vectors.map((v) => Array.from(v))).toEqual(
      texts.map((t) => Array.from(Float32Array.from(standInEmbedding(t)))),
    );
  });

  it('embeds with the chat model’s name when no embedding model is named', async () => {
    await model(server.url, 'sk-test').embedder!().embed(['one']);
    expect(server.requests.at(-1)!.body).toMatchObject({ model: 'chat-model', input: ['one'] });
  });

  it('a server without /embeddings: a clear error naming the setting, not retried', async () => {
    const err = await model(chatOnly.url).embedder!('nope')
      .embed(['a'])
      .catch((e: unknown) => e as Error);
    expect((err as Error).message).toMatch(/^Embeddings failed: .*404/);
    expect((err as Error).message).toContain(
      'does the server make embeddings with the model "nope"? Name another with embedding_model or RAG_EMBEDDING_MODEL.',
    );
    expect(chatOnly.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(1);
  });

  it('refuses an answer with too few vectors, or vectors of mixed lengths, saying what was wrong', async () => {
    answers.push(() => ({ status: 200, body: { data: [{ index: 0, embedding: [1, 2] }] } }));
    await expect(model(bareUrl).embedder!('m').embed(['a', 'b'])).rejects.toThrow(
      'The embeddings endpoint gave an unusable answer: 1 vectors for 2 texts.',
    );
    answers.push(() => ({
      status: 200,
      body: {
        data: [
          { index: 0, embedding: [1, 2] },
          { index: 1, embedding: [1, 2, 3] },
        ],
      },
    }));
    await expect(model(bareUrl).embedder!('m').embed(['a', 'b'])).rejects.toThrow(
      'The embeddings endpoint gave an unusable answer: vectors of 2 and 3 numbers.',
    );
  });

  it('retries a busy server (503) as chat calls do, then gives the vectors', async () => {
    answers.push(() => ({ status: 503, body: { error: { message: 'busy' } }, headers: { 'retry-after-ms': '10' } }));
    answers.push((input) => ({
      status: 200,
      body: { data: input.map((_, index) => ({ index, embedding: [index, 1] })) },
    }));
    const vectors = await model(bareUrl).embedder!('m').embed(['a', 'b']);
    expect(vectors.map((v) => Array.from(v))).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(bareCalls).toBe(2);
  });
});
