// What an OpenAI client is told when a run of /v1/chat/completions started and then failed because the model server
// did (a 5xx, a 429 with Retry-After, a refusal), driven by the official `openai` client with its own retry logic (it
// retries 408, 409, 429 and 5xx unless told `x-should-retry: false`). Each attempt it makes is a whole run, stored as
// a conversation of its own, and runs the agent's tools again: so a run in which a tool ran is never retried, nor one
// whose failure cannot pass; one in which nothing ran may be. The model server's 429 reaches the client as OpenAI's
// RateLimitError with its Retry-After. The real handlers behind test/support/api-server.ts, a real SQLite store and
// the scripted model server over HTTP; the app's own model retries are off (LLM_MAX_RETRIES=0), so that each model
// request the server counts is one run's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { loadConfig } from '../../lib/config';
import type { ScriptedReply } from '../../lib/protocol/fixture';
import { createAppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { startApiServer, type ApiServer } from '../support/api-server';

const A = ownerScope('user-a');
let dir: string;
let model: ModelServer;
let store: ChatStore;
let api: ApiServer;

beforeAll(async () => {
  model = await createModelServer();
  dir = mkdtempSync(path.join(tmpdir(), 'v1-run-failures-'));
  store = await openSqliteStore(path.join(dir, 'chat.db'));
  const config = loadConfig({
    DATA_DIR: dir,
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'k',
    OPENAI_MODEL: 'm',
    LLM_MAX_RETRIES: '0',
  });
  api = await startApiServer(await createAppContext(config, store), { 'key-a': everyToolActor(A) });
});
afterAll(async () => {
  await api?.close();
  await store?.close();
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => model.reset());

/** The official client with its default retries (2), counting the requests it makes. */
function countingClient(): { client: OpenAI; attempts: () => number } {
  let attempts = 0;
  const client = new OpenAI({
    baseURL: api.url,
    apiKey: 'key-a',
    fetch: (url, init) => {
      attempts++;
      return fetch(url, init);
    },
  });
  return { client, attempts: () => attempts };
}

/** The stored conversations /v1 made for a question (each run is one, titled "API · FnCallAgent: <question>"). */
async function runsAsked(question: string): Promise<number> {
  return (await store.listConversations(A)).filter((c) => c.title.includes(question)).length;
}

const CALCULATE: ScriptedReply = { toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"6*7"}' }] };
const DOWN: ScriptedReply = { fault: { kind: 'status', status: 500 } };
const LIMITED: ScriptedReply = { fault: { kind: 'status', status: 429, retryAfter: 1 } };

type ApiError = InstanceType<typeof OpenAI.APIError>;

async function ask(client: OpenAI, question: string): Promise<ApiError> {
  const e = await client.chat.completions
    .create({ model: 'FnCallAgent', messages: [{ role: 'user', content: question }] })
    .catch((err: unknown) => err);
  expect(e).toBeInstanceOf(OpenAI.APIError);
  return e as ApiError;
}

describe('a /v1 run the model server failed', () => {
  it('after a tool ran: one run, not retried, a 502 naming the run, which is stored as failed', async () => {
    model.setScenario({ replies: [CALCULATE, DOWN] });
    const { client, attempts } = countingClient();
    const e = await ask(client, 'tool then down');
    expect(e).toBeInstanceOf(OpenAI.InternalServerError);
    expect(e.status).toBe(502);
    expect(e.headers?.get('x-should-retry')).toBe('false');
    expect(e.error).toMatchObject({ type: 'server_error', code: 'run_failed' });
    expect(e.message).toBe('502 Model server error 500: Scripted error: HTTP 500');
    expect(attempts()).toBe(1);
    // The tool ran once: one model call before it, one after.
    expect(model.requests).toHaveLength(2);
    expect(await runsAsked('tool then down')).toBe(1);
    const run = await store.getRun(A, e.headers!.get('x-run-id')!);
    expect(run?.status).toBe('error');
  });

  it('before anything ran: a 502 the client may retry, each attempt a run of its own', async () => {
    model.setScenario({ replies: [DOWN, DOWN, DOWN] });
    const { client, attempts } = countingClient();
    const e = await ask(client, 'down at once');
    expect(e.status).toBe(502);
    expect(e.headers?.get('x-should-retry')).toBeNull();
    expect(e.headers?.get('x-run-id')).toMatch(/\S/);
    expect(e.message).toBe('502 Model server error 500: Scripted error: HTTP 500');
    expect(attempts()).toBe(3);
    expect(model.requests).toHaveLength(3);
    expect(await runsAsked('down at once')).toBe(3);
  });

  it('a failure that cannot pass (the model server refused its key: 401) is not retried, though nothing ran', async () => {
    model.setScenario({ replies: [{ fault: { kind: 'status', status: 401 } }] });
    const { client, attempts } = countingClient();
    const e = await ask(client, 'refused key');
    expect(e.status).toBe(502);
    expect(e.headers?.get('x-should-retry')).toBe('false');
    expect(attempts()).toBe(1);
    expect(await runsAsked('refused key')).toBe(1);
  });

  it('its 429 is a RateLimitError with its Retry-After, retried after that time while nothing ran', async () => {
    model.setScenario({ replies: [LIMITED, LIMITED] });
    const client = new OpenAI({ baseURL: api.url, apiKey: 'key-a', maxRetries: 1 });
    const t0 = Date.now();
    const e = await ask(client, 'limited at once');
    expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e.status).toBe(429);
    expect(e.error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded', param: null });
    expect(e.headers?.get('retry-after')).toBe('1');
    expect(e.headers?.get('x-should-retry')).toBeNull();
    // The client waited the second the model server asked for before its one retry.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(model.requests).toHaveLength(2);
    expect(await runsAsked('limited at once')).toBe(2);
  });

  it('its 429 after a tool ran is a RateLimitError with Retry-After that is not retried', async () => {
    model.setScenario({ replies: [CALCULATE, LIMITED] });
    const { client, attempts } = countingClient();
    const e = await ask(client, 'tool then limited');
    expect(e).toBeInstanceOf(OpenAI.RateLimitError);
    expect(e.headers?.get('retry-after')).toBe('1');
    expect(e.headers?.get('x-should-retry')).toBe('false');
    expect(attempts()).toBe(1);
    expect(await runsAsked('tool then limited')).toBe(1);
  });

  it('streamed: the error event says the same type and code, and the stream is not asked again', async () => {
    const { client, attempts } = countingClient();
    const streamed = async (question: string) => {
      const e = await client.chat.completions
        .create({ model: 'FnCallAgent', messages: [{ role: 'user', content: question }], stream: true })
        .then(async (s) => {
          for await (const _ of s) void _;
        })
        .catch((err: unknown) => err);
      expect(e).toBeInstanceOf(OpenAI.APIError);
      return e as ApiError;
    };
    model.setScenario({ replies: [CALCULATE, LIMITED] });
    const limited = await streamed('streamed limited');
    expect(limited.error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded', param: null });
    expect(limited.message).toMatch(/Model server error 429/);
    model.setScenario({ replies: [DOWN] });
    const down = await streamed('streamed down');
    expect(down.error).toMatchObject({ type: 'server_error', code: 'run_failed' });
    expect(attempts()).toBe(2);
    expect(await runsAsked('streamed limited')).toBe(1);
    expect(await runsAsked('streamed down')).toBe(1);
  });
});
