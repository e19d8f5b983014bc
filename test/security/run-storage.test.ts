// One user's runs may store RUN_BYTES_PER_DAY of events in 24 hours, on every path that starts a run: the built app,
// its SSE API, the page's server action and /v1. The run that passes it ends with the reason; the next is refused
// with 429, Retry-After and a code the page says in its language, and the model server receives nothing for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionValue, callAction, request, startApp, type App } from './support/app';

let app: App;
beforeAll(async () => {
  app = await startApp({ env: { RUN_BYTES_PER_DAY: '30000' } });
});
afterAll(() => app?.stop());

const send = (message: string) =>
  request(app.url, '/api/chat', {
    headers: { origin: app.url, 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });

describe('stored run events per user (RUN_BYTES_PER_DAY)', () => {
  it('an endless answer is stopped with the reason, and no run of that user starts after it', async () => {
    app.model.setScenario({
      rules: [
        { when: { lastUserIncludes: 'on and on' }, reply: { content: 'Skuas ', endless: 'text', chunkSize: 300 } },
      ],
      fallback: 'echo',
    });
    app.model.reset();
    const first = await send('Go on and on');
    expect(first.status).toBe(200);
    const end = first.text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.includes('"run-end"'))
      .map((line) => JSON.parse(line.slice(6)) as { reason: string; error?: { code?: string; message: string } });
    expect(end).toEqual([
      expect.objectContaining({
        reason: 'error',
        error: expect.objectContaining({
          code: 'run-storage-spent',
          message: expect.stringMatching(/^This run was stopped: your runs have stored 29\.3 KB in the last 24 hours/),
        }),
      }),
    ]);

    const second = await send('another');
    expect(second.status).toBe(429);
    const wait = Number(second.headers['retry-after']);
    expect(wait).toBeGreaterThan(23 * 3600);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    expect(second.json().error?.message).toBe(
      "Your runs have stored 29.3 KB in the last 24 hours, the most one user's may (RUN_BYTES_PER_DAY). Try again in 24 h.",
    );
    // The page's server action: coded, so that the page says it in its language.
    const viaAction = actionValue<Record<string, unknown>>(
      await callAction(app, 'sendMessage', [{ message: 'from the page' }]),
    );
    expect(viaAction).toEqual({
      ok: false,
      error: expect.stringMatching(/^Your runs have stored 29\.3 KB/),
      status: 429,
      code: 'run-storage-budget',
      values: { limit: '29.3 KB', hours: 24 },
    });
    // /v1 answers as OpenAI's API answers a rate limit.
    const api = await request(app.url, '/v1/chat/completions', {
      headers: { 'content-type': 'application/json', authorization: 'Bearer any-key-on-loopback' },
      body: JSON.stringify({ model: 'fncall', messages: [{ role: 'user', content: 'five' }] }),
    });
    expect(api.status).toBe(429);
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(api.json().error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded', param: null });
    expect(app.model.requests).toHaveLength(1);
  });
});
