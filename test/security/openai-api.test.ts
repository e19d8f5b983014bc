// The /v1 API (every agent as an OpenAI-compatible model) goes through the same request checks as every route, on
// the built app with ACCESS_TOKEN set: the token is the API key (a Bearer), a foreign Host is refused (DNS
// rebinding), and a cross-site page cannot run an agent; an API client, which sends no Origin, can. With accounts on
// (AUTH=required), a user's API key is the user: /v1/models lists that user's saved agents only, and another user's
// agent is an unknown model (404), run by nobody.
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRecord, SavedAgent } from '../../lib/store/types';
import { countRows, request, startApp, type App } from './support/app';
import { resultAs, signUp } from './support/accounts';

/** The builtin agent kinds GET /v1/models lists before the saved agents. */
const BUILTIN_KINDS = [
  'fncall',
  'react',
  'assistant',
  'virtualmemory',
  'memo',
  'tir',
  'article',
  'basicdocqa',
  'paralleldocqa',
];

const TOKEN = 'openai-api-token-0123456789abcdef';
let app: App;
beforeAll(async () => {
  app = await startApp({ env: { ACCESS_TOKEN: TOKEN } });
});
afterAll(() => app?.stop());
beforeEach(() => {
  app.model.reset();
  app.model.setScenario({ fallback: { content: 'Hello from the agent.' } });
});

const completion = JSON.stringify({ model: 'fncall', messages: [{ role: 'user', content: 'Hi' }] });
const json = { 'content-type': 'application/json' };
const bearer = { authorization: `Bearer ${TOKEN}` };

describe('/v1 behind the request checks', () => {
  it('needs the token as a Bearer: 401 without it or with another, nothing run', async () => {
    expect((await request(app.url, '/v1/models')).status).toBe(401);
    const wrong = await request(app.url, '/v1/chat/completions', {
      headers: { ...json, authorization: 'Bearer sk-not-it' },
      body: completion,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('Bearer');
    expect(app.model.requests).toHaveLength(0);
    expect(countRows(app, 'conversations')).toBe(0);
  });

  it('with the token: the models, and a completion run and stored', async () => {
    const models = await request(app.url, '/v1/models', { headers: bearer });
    expect(models.status).toBe(200);
    expect(models.json<{ data: { id: string }[] }>().data.map((m) => m.id)).toEqual(BUILTIN_KINDS);
    const res = await request(app.url, '/v1/chat/completions', { headers: { ...json, ...bearer }, body: completion });
    expect(res.status).toBe(200);
    expect(res.json<{ choices: { message: { content: string } }[] }>().choices[0]!.message.content).toBe(
      'Hello from the agent.',
    );
    expect(countRows(app, 'conversations')).toBe(1);
  });

  it('refuses a Host the app is not served under, even with the token', async () => {
    const res = await request(app.url, '/v1/chat/completions', {
      headers: { ...json, ...bearer, host: 'rebind.example' },
      body: completion,
    });
    expect(res.status).toBe(403);
    expect(res.json<{ error: unknown }>().error).toMatchObject({ type: 'request_forbidden', param: null });
    expect(app.model.requests).toHaveLength(0);
  });

  it("answers the checks' refusals in OpenAI's error shape, which the official client raises with their type and code", async () => {
    const denied = await request(app.url, '/v1/models', { headers: { authorization: 'Bearer sk-not-it' } });
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toContain('Bearer');
    expect(denied.json<{ error: unknown }>().error).toEqual({
      message: expect.any(String),
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    });
    const client = new OpenAI({ baseURL: `${app.url}/v1`, apiKey: 'sk-not-it', maxRetries: 0 });
    const raised = await client.chat.completions
      .create({ model: 'fncall', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(raised).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(raised).toMatchObject({ code: 'invalid_api_key', type: 'invalid_request_error' });
    expect(app.model.requests).toHaveLength(0);
  });

  it('refuses a cross-site page that has no token (its cookie alone does not do)', async () => {
    const res = await request(app.url, '/v1/chat/completions', {
      headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
      body: completion,
    });
    expect([401, 403]).toContain(res.status);
    expect(app.model.requests).toHaveLength(0);
  });
});

/** What an OpenAI client raises for a request, or what it answered (for the test to say what went wrong). */
async function raised(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => ({ answered: v }),
    (e: unknown) => e,
  );
}

describe("/v1 paths and methods it does not serve: OpenAI's error shape, after the key is checked", () => {
  const client = () => new OpenAI({ baseURL: `${app.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
  const notServed = (path: string) => ({
    message: `${path} is not served by this server; it serves /v1/chat/completions and /v1/models.`,
    type: 'invalid_request_error',
    param: null,
    code: 'not_found',
  });

  it('an endpoint OpenAI has and this server has not (embeddings, completions) is a 404 naming it, which the client raises as NotFoundError', async () => {
    const embeddings = await raised(client().embeddings.create({ model: 'fncall', input: 'hello' }));
    expect(embeddings).toBeInstanceOf(OpenAI.NotFoundError);
    expect(embeddings).toMatchObject({ status: 404, error: notServed('/v1/embeddings') });
    const completions = await raised(client().completions.create({ model: 'fncall', prompt: 'hello' }));
    expect(completions).toBeInstanceOf(OpenAI.NotFoundError);
    expect(completions).toMatchObject({ status: 404, error: notServed('/v1/completions') });
    for (const [method, path] of [
      ['GET', '/v1/files'],
      ['DELETE', '/v1/chat'],
      ['POST', '/v1/models/fncall/extra'],
      ['PUT', '/v1'],
    ]) {
      const res = await request(app.url, path!, { method, headers: bearer });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json<{ error: unknown }>().error).toEqual(notServed(path!));
    }
    expect(app.model.requests).toHaveLength(0);
  });

  it('a method a served path does not answer is a 405 with Allow (the methods it answers), in the same shape', async () => {
    const cases: [string, string, string, string][] = [
      ['GET', '/v1/chat/completions', 'POST, OPTIONS', 'POST'],
      ['DELETE', '/v1/chat/completions', 'POST, OPTIONS', 'POST'],
      ['POST', '/v1/models', 'GET, HEAD, OPTIONS', 'GET'],
      ['DELETE', '/v1/models/fncall', 'GET, HEAD, OPTIONS', 'GET'],
    ];
    for (const [method, path, allow, answers] of cases) {
      const body = method === 'POST' ? '{}' : undefined;
      const res = await request(app.url, path, { method, headers: { ...json, ...bearer }, body });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.json<{ error: unknown }>().error).toEqual({
        message: `${path} answers ${answers} only, not ${method}.`,
        type: 'invalid_request_error',
        param: null,
        code: 'method_not_allowed',
      });
    }
    const viaClient = await raised(client().get('/chat/completions'));
    expect(viaClient).toBeInstanceOf(OpenAI.APIError);
    expect(viaClient).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect((viaClient as Error).message).toContain('/v1/chat/completions answers POST only, not GET.');
    expect(app.model.requests).toHaveLength(0);
  });

  it('OPTIONS on a served path says in Allow the methods it answers, not every method its route exports, and grants no CORS', async () => {
    const cases: [string, string][] = [
      ['/v1/chat/completions', 'POST, OPTIONS'],
      ['/v1/models', 'GET, HEAD, OPTIONS'],
      ['/v1/models/fncall', 'GET, HEAD, OPTIONS'],
    ];
    for (const [path, allow] of cases) {
      const res = await request(app.url, path, { method: 'OPTIONS', headers: bearer });
      expect(res.status, path).toBe(204);
      expect(res.headers.allow, path).toBe(allow);
      expect(
        Object.keys(res.headers).filter((h) => h.startsWith('access-control-')),
        path,
      ).toEqual([]);
    }
    // A path it does not serve: the 404 every method gets.
    const unserved = await request(app.url, '/v1/embeddings', { method: 'OPTIONS', headers: bearer });
    expect(unserved.status).toBe(404);
    expect(unserved.json<{ error: unknown }>().error).toEqual(notServed('/v1/embeddings'));
    // Without the key, the 401 of any /v1 path: nothing of what is served is told.
    const keyless = await request(app.url, '/v1/chat/completions', { method: 'OPTIONS' });
    expect(keyless.status).toBe(401);
    expect(keyless.headers.allow).toBeUndefined();
  });

  it('without the token the answer is the 401 of any /v1 path: a caller without the key learns nothing of what is served', async () => {
    for (const path of ['/v1/embeddings', '/v1/chat/completions']) {
      const res = await request(app.url, path, { method: 'GET' });
      expect(res.status, path).toBe(401);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('invalid_api_key');
    }
  });
});

describe('/v1 with accounts: an API key is its user', () => {
  let accounts: App;
  const keys: Record<'a' | 'b', string> = { a: '', b: '' };
  let agentOfA: SavedAgent;
  beforeAll(async () => {
    accounts = await startApp({ env: { AUTH: 'required' } });
    accounts.model.setScenario({ fallback: { content: 'Hello from the agent.' } });
    const admin = await signUp(accounts, 'admin@example.com');
    await resultAs(accounts, admin, 'updateServerSettings', [{ signUp: 'open' }]);
    for (const who of ['a', 'b'] as const) {
      const user = await signUp(accounts, `${who}@example.com`);
      const made = await resultAs<{ secret: string; key: ApiKeyRecord }>(accounts, user, 'createApiKey', [who, 'run']);
      if (!made.ok) throw new Error(made.error);
      keys[who] = made.value.secret;
      if (who === 'a') {
        const saved = await resultAs<SavedAgent>(accounts, user, 'saveAgent', [
          undefined,
          { name: 'Walrus desk', kind: 'fncall' },
        ]);
        if (!saved.ok) throw new Error(saved.error);
        agentOfA = saved.value;
      }
    }
  }, 120_000);
  afterAll(() => accounts?.stop());

  const as = (who: 'a' | 'b') => ({ authorization: `Bearer ${keys[who]}` });
  const modelIds = async (who: 'a' | 'b') =>
    (await request(accounts.url, '/v1/models', { headers: as(who) }))
      .json<{ data: { id: string }[] }>()
      .data.map((m) => m.id);

  it('lists only the key owner’s agents', async () => {
    expect(await modelIds('a')).toContain(agentOfA.id);
    expect(await modelIds('b')).toEqual(BUILTIN_KINDS);
  });

  it('another user’s agent, by id or name, is an unknown model to GET /v1/models/{model}: 404; its owner gets it', async () => {
    for (const model of [agentOfA.id, 'Walrus desk']) {
      const res = await request(accounts.url, `/v1/models/${encodeURIComponent(model)}`, { headers: as('b') });
      expect(res.status).toBe(404);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('model_not_found');
      const own = await request(accounts.url, `/v1/models/${encodeURIComponent(model)}`, { headers: as('a') });
      expect(own.status).toBe(200);
      expect(own.json<{ id: string }>().id).toBe(agentOfA.id);
    }
  });

  it('another user’s agent, by id or name, is an unknown model: 404, nothing run or stored', async () => {
    const before = countRows(accounts, 'conversations');
    for (const model of [agentOfA.id, 'Walrus desk']) {
      const res = await request(accounts.url, '/v1/chat/completions', {
        headers: { ...json, ...as('b') },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }] }),
      });
      expect(res.status).toBe(404);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('model_not_found');
    }
    expect(accounts.model.requests).toHaveLength(0);
    expect(countRows(accounts, 'conversations')).toBe(before);
  });

  it('a path it does not serve: 401 without a key, as a served one (401 before 404); any user’s key gets the 404', async () => {
    for (const path of ['/v1/embeddings', '/v1/models']) {
      const anonymous = await request(accounts.url, path, { method: 'POST', headers: json, body: '{}' });
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.json<{ error: { code: string } }>().error.code).toBe('invalid_api_key');
    }
    for (const who of ['a', 'b'] as const) {
      const client = new OpenAI({ baseURL: `${accounts.url}/v1`, apiKey: keys[who], maxRetries: 0 });
      const failed = await client.embeddings.create({ model: 'fncall', input: 'hello' }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(OpenAI.NotFoundError);
      expect((failed as Error).message).toContain('/v1/embeddings is not served by this server');
      const wrongMethod = await request(accounts.url, '/v1/chat/completions', { headers: as(who) });
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.allow).toBe('POST, OPTIONS');
    }
    const anonymousGet = await request(accounts.url, '/v1/chat/completions');
    expect(anonymousGet.status).toBe(401);
  });

  it('the owner’s key runs it', async () => {
    const res = await request(accounts.url, '/v1/chat/completions', {
      headers: { ...json, ...as('a') },
      body: JSON.stringify({ model: agentOfA.id, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.json<{ choices: { message: { content: string } }[] }>().choices[0]!.message.content).toBe(
      'Hello from the agent.',
    );
  });
});

describe('/v1 without accounts or ACCESS_TOKEN: this machine needs no key', () => {
  let single: App;
  beforeAll(async () => {
    single = await startApp();
    single.model.setScenario({ fallback: { content: 'Hello from the agent.' } });
  });
  afterAll(() => single?.stop());

  it('a request from loopback with no Authorization, or any key, acts as the one user (as docs/api.md says)', async () => {
    const keyless = await request(single.url, '/v1/chat/completions', { headers: json, body: completion });
    expect(keyless.status).toBe(200);
    const anyKey = new OpenAI({ baseURL: `${single.url}/v1`, apiKey: 'anything', maxRetries: 0 });
    const answer = await anyKey.chat.completions.create({
      model: 'fncall',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(answer.choices[0]!.message.content).toBe('Hello from the agent.');
    // An unserved path is answered as to any caller let in: the 404 in OpenAI's shape.
    const embeddings = await anyKey.embeddings.create({ model: 'fncall', input: 'hi' }).catch((e: unknown) => e);
    expect(embeddings).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("another site's page cannot use the API from a browser: its CORS preflight gets the methods, and no Access-Control-Allow-Origin", async () => {
    single.model.reset();
    const preflight = await request(single.url, '/v1/chat/completions', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.allow).toBe('POST, OPTIONS');
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    // The browser's own preflight (fetch metadata: cross-site) is refused outright, as any cross-site read is.
    const browser = await request(single.url, '/v1/models', {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
    });
    expect(browser.status).toBe(403);
    expect(Object.keys(browser.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(single.model.requests).toHaveLength(0);
  });
});
