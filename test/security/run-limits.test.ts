// Runs per client are limited (MAX_CONCURRENT_RUNS, MAX_RUNS_PER_MINUTE): past a limit a run is refused with 429,
// a message saying which limit and Retry-After, and the model server receives nothing for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionValue, callAction, request, startApp, type App } from './support/app';

let app: App;
beforeAll(async () => {
  app = await startApp({ env: { MAX_CONCURRENT_RUNS: '1', MAX_RUNS_PER_MINUTE: '3' } });
});
afterAll(() => app?.stop());

const send = (message: string) =>
  request(app.url, '/api/chat', {
    headers: { origin: app.url, 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });

describe('run limits per client', () => {
  it('a second run while one is going: 429 with the reason and Retry-After, and no model request for it', async () => {
    app.model.setScenario({
      rules: [{ when: { lastUserIncludes: 'slow' }, reply: { content: 'x'.repeat(40), chunkSize: 1, delayMs: 50 } }],
      fallback: 'echo',
    });
    app.model.reset();
    const first = send('a slow one');
    await new Promise((r) => setTimeout(r, 300)); // the first run is streaming by now
    const second = await send('another');
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('5');
    expect(second.json().error?.message).toBe(
      'Too many runs at once: 1 of yours are still going (the limit is 1, MAX_CONCURRENT_RUNS). Wait for one to end, or stop one.',
    );
    // The page's server action gets the same refusal as its result.
    const viaAction = actionValue<{ ok: boolean; error: string }>(
      await callAction(app, 'sendMessage', [{ message: 'from the page' }]),
    );
    // With its code and values, so that the page says it in its language (read from the error's fields: the class of
    // another bundle lost them before, issue #28).
    expect(viaAction).toEqual({
      ok: false,
      error: expect.stringMatching(/^Too many runs at once/),
      status: 429,
      code: 'too-many-runs',
      values: { running: 1, limit: 1 },
    });
    expect((await first).status).toBe(200);
    expect(app.model.requests).toHaveLength(1);
  });

  it('past MAX_RUNS_PER_MINUTE: 429 saying when to try again', async () => {
    app.model.reset();
    expect((await send('two')).status).toBe(200);
    expect((await send('three')).status).toBe(200);
    const fourth = await send('four');
    expect(fourth.status).toBe(429);
    const wait = Number(fourth.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(fourth.json().error?.message).toBe(
      `Too many runs started: the limit is 3 a minute (MAX_RUNS_PER_MINUTE). Try again in ${wait} s.`,
    );
    expect(app.model.requests).toHaveLength(2);
    // /v1 counts against the same limit, and answers as OpenAI's API answers a rate limit.
    const api = await request(app.url, '/v1/chat/completions', {
      headers: { 'content-type': 'application/json', authorization: 'Bearer any-key-on-loopback' },
      body: JSON.stringify({ model: 'fncall', messages: [{ role: 'user', content: 'five' }] }),
    });
    expect(api.status).toBe(429);
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
    expect(api.json().error).toMatchObject({
      type: 'requests',
      code: 'rate_limit_exceeded',
      param: null,
      message: expect.stringMatching(/^Too many runs started: the limit is 3 a minute/),
    });
    expect(app.model.requests).toHaveLength(2);
  });
});

describe('what one saved agent may ask of the server', () => {
  it('a Router or GroupChat holds at most 32 members (a run builds each member of each member): more is refused', async () => {
    const saved = actionValue<{ ok: boolean; value: { id: string } }>(
      await callAction(app, 'saveAgent', [undefined, { name: 'Leaf', kind: 'assistant' }]),
    );
    expect(saved.ok).toBe(true);
    // 2,000 members, each the same assistant: nested one level more, 4,000,000 agents built for one message.
    for (const kind of ['router', 'groupchat']) {
      const members = Array<string>(2000).fill(saved.value.id);
      const wide = actionValue<{ ok: boolean; status?: number; error?: string; field?: string }>(
        await callAction(app, 'saveAgent', [undefined, { name: `Wide ${kind}`, kind, members }]),
      );
      expect(wide).toMatchObject({ ok: false, status: 400, field: 'members' });
      expect(wide.error).toBe('members: A Router or GroupChat holds at most 32 members.');
    }
    const list = actionValue<{ ok: boolean; value: { name: string }[] }>(await callAction(app, 'listAgents', []));
    expect(list.value.map((a) => a.name)).toEqual(['Leaf']);
  });
});
