// The /v1 API (every agent as an OpenAI-compatible model) goes through the same request checks as every route, on
// the built app with ACCESS_TOKEN set: the token is the API key (a Bearer), a foreign Host is refused (DNS
// rebinding), and a cross-site page cannot run an agent; an API client, which sends no Origin, can.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows, request, startApp, type App } from './support/app';

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
    expect(models.json<{ data: { id: string }[] }>().data.map((m) => m.id)).toEqual(['fncall', 'react', 'assistant']);
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
