// An OpenAI client that goes away mid-run through /v1/chat/completions (a timeout, a killed process, an aborted
// request), non-streamed and streamed: the run stops and closes its model request, and keeps what it had. The official
// `openai` client against the real handlers over HTTP (test/support/api-server.ts), a real SQLite file, the scripted
// model server over HTTP with a reply that never ends. Before: a non-streamed request sends nothing until the end, so
// nothing heard its client leave; the run went on (here: for good) with the model's stream open.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { everyToolActor } from '../../lib/chat/actor';
import { loadConfig } from '../../lib/config';
import { createAppContext } from '../../lib/server/context';
import { openSqliteStore } from '../../lib/store';
import { ownerScope } from '../../lib/store/owner';
import type { ChatStore } from '../../lib/store/types';
import { createModelServer, type ModelServer } from '../../scripts/model-server/server';
import { startApiServer, type ApiServer } from '../support/api-server';

const OWNER = ownerScope('user-a');
let dir: string;
let model: ModelServer;
let store: ChatStore;
let api: ApiServer;
let client: OpenAI;

beforeAll(async () => {
  model = await createModelServer();
  dir = mkdtempSync(path.join(tmpdir(), 'v1-client-leaves-'));
  store = await openSqliteStore(path.join(dir, 'chat.db'));
  const config = loadConfig({ DATA_DIR: dir, OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k', OPENAI_MODEL: 'm' });
  api = await startApiServer(await createAppContext(config, store), { 'key-a': everyToolActor(OWNER) });
  client = new OpenAI({ baseURL: api.url, apiKey: 'key-a', maxRetries: 0 });
});
afterAll(async () => {
  await api?.close();
  await store?.close();
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  model.reset();
  model.setScenario({ replies: [{ content: 'The longest river is ', endless: 'text', delayMs: 10 }] });
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The one run of the one conversation the request made. */
async function theRun() {
  const [conversation] = await store.listConversations(OWNER);
  if (!conversation) return undefined;
  return (await store.listTurns(OWNER, conversation.id))[0]?.run;
}

/** Once the client has left: the run is stopped (within a bound), keeps what it streamed, and its model request is
 *  closed unfinished. */
async function expectStopped() {
  const run = await until('the run to stop', async () => {
    const r = await theRun();
    return r && r.status !== 'running' ? r : undefined;
  });
  expect(run.status).toBe('aborted');
  const events = await store.getRunEvents(OWNER, run.id);
  expect(events.at(-1)).toMatchObject({ type: 'run-end', reason: 'aborted' });
  expect(events.some((e) => e.type === 'text-delta')).toBe(true);
  const request = await until('the model request to close', async () =>
    model.requests[0]?.closedAt !== undefined ? model.requests[0] : undefined,
  );
  expect(request.finished).toBe(false);
}

describe('/v1/chat/completions: a client that leaves mid-run', () => {
  it('non-streamed: the run stops and its model request closes', async () => {
    const left = new AbortController();
    const asked = client.chat.completions
      .create(
        { model: 'fncall', messages: [{ role: 'user', content: 'Which river is longest?' }] },
        { signal: left.signal },
      )
      .catch((e: unknown) => e);
    // Some of the answer is in (stored) before the client gives up.
    await until('the answer to start', async () => {
      const run = await theRun();
      return run && (await store.getRunEvents(OWNER, run.id)).some((e) => e.type === 'text-delta') ? true : undefined;
    });
    left.abort();
    expect(await asked).toBeInstanceOf(OpenAI.APIUserAbortError);
    await expectStopped();
  });

  it('streamed: the run stops and its model request closes', async () => {
    const left = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'fncall', messages: [{ role: 'user', content: 'Which river is longest?' }], stream: true },
      { signal: left.signal },
    );
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break; // leaving the loop aborts it
    await expectStopped();
  });
});
