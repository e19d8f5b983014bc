// A provider that repeats the key it was sent in its 401 ("Incorrect API key provided: sk-…") must not make the
// server's key reach a caller: the scripted model server answers so, a run goes through /v1 (test/support/api-server.ts)
// with the app's own agent factory, over a real SQLite store. Neither the /v1 error nor the run's stored events carry
// any part of the key.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { loadConfig } from '../../lib/config';
import { KEY_REDACTED } from '../../lib/llm/redact-key';
import { createAppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { startApiServer, type ApiServer } from '../support/api-server';

const KEY = 'sk-proj-Q7vX2mLp9RtK4wZs8NcJ3hYb6FdG1aEu';
const A = ownerScope('user-a');

let model: ModelServer;
let store: ChatStore;
let api: ApiServer;
let client: OpenAI;

beforeAll(async () => {
  model = await createModelServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'key-redaction-'));
  store = await openSqliteStore(path.join(dataDir, 'chat.db'));
  const config = loadConfig({ DATA_DIR: dataDir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: KEY, OPENAI_MODEL: 'm' });
  api = await startApiServer(await createAppContext(config, store), { 'key-a': everyToolActor(A) });
  client = new OpenAI({ baseURL: api.url, apiKey: 'key-a', maxRetries: 0 });
});
afterAll(async () => {
  await api.close();
  await store.close();
  await model.close();
});

/** Whether `text` holds any 8 characters of the key in a row, or its last 4 after a mask. */
function leaks(text: string): boolean {
  for (let i = 0; i + 8 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 8))) return true;
  return text.includes(KEY.slice(-4));
}

describe("a provider's error that repeats the key", () => {
  const said = [
    `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    `Incorrect API key provided: ${KEY.slice(0, 8)}****************************${KEY.slice(-4)}.`,
    `Incorrect API key provided: ${KEY.slice(0, 6)}...${KEY.slice(-3)}`,
    `invalid token '${KEY.slice(5, 30)}'`,
  ];

  it.each(said)('reaches neither the /v1 caller nor the stored run: %s', async (message) => {
    model.setScenario({
      replies: [
        { fault: { kind: 'status', status: 401, body: { error: { message, type: 'invalid_request_error' } } } },
      ],
    });
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'fncall', messages: [{ role: 'user', content: 'hi' }], stream: true })
      .withResponse();
    const failed = await (async () => {
      for await (const _ of stream) void _;
    })().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    const told = (failed as Error).message;
    expect(told).toContain('Model server error 401');
    expect(told).toContain(KEY_REDACTED);
    expect(leaks(told)).toBe(false);

    const events = await store.getRunEvents(A, response.headers.get('x-run-id')!);
    const end = events.find((e) => e.type === 'run-end');
    expect(end).toMatchObject({ reason: 'error', error: { status: 401 } });
    expect(leaks(JSON.stringify(events))).toBe(false);
    // The model server was sent the key: what was hidden is the key.
    expect(model.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    model.setScenario({
      replies: [
        { fault: { kind: 'status', status: 401, body: { error: { message, type: 'invalid_request_error' } } } },
      ],
    });
    const plain = await client.chat.completions
      .create({ model: 'fncall', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect((plain as Error).message).toContain(KEY_REDACTED);
    expect(leaks((plain as Error).message)).toBe(false);
  });
});
