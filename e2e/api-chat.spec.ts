import { expect, test } from '@playwright/test';
import { parseFeedEvent, type FeedEvent } from '../lib/protocol/events';
import { chatRequests, setScenario } from './support/model';

/** Splits an SSE body into its events: the `event:` name (if any) and the `data:` text. */
function sseEvents(body: string): { event?: string; data: string }[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length);
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice('data: '.length))
        .join('\n');
      return { event, data };
    });
}

test('POST /api/chat streams the turn ids, then the run feed ending with run-end answered', async ({ request }) => {
  await setScenario({
    rules: [
      {
        when: { lastUserIncludes: 'api-narwhal' },
        reply: [
          { toolCalls: [{ name: 'calculator', arguments: '{"expression": "3*5"}' }] },
          { content: 'It is 15, narwhal.' },
        ],
      },
    ],
  });
  const res = await request.post('/api/chat', { data: { message: 'What is 3*5? api-narwhal' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^text\/event-stream/);

  const [first, ...rest] = sseEvents(await res.text());
  expect(first?.event).toBe('turn');
  const ids = JSON.parse(first?.data ?? '{}') as Record<string, unknown>;
  expect(ids).toEqual({ conversationId: expect.any(String), turnId: expect.any(String), runId: expect.any(String) });

  expect(rest.every((e) => e.event === undefined)).toBe(true);
  // The same feed as the page's: each event of the protocol without its run id (said once, above), and without
  // what only the inspector shows (requests, the input, per-call llm-end).
  const feed = rest.map((e) => JSON.parse(e.data) as Record<string, unknown>);
  expect(feed.some((e) => 'runId' in e || e.type === 'llm-end' || 'request' in e || 'input' in e)).toBe(false);
  const events: FeedEvent[] = feed.map(parseFeedEvent);
  expect(events[0]?.type).toBe('run-start');
  const result = events.find((e) => e.type === 'tool-result');
  expect(result).toMatchObject({ name: 'calculator', ok: true, content: '15' });
  const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
  expect(text).toBe('It is 15, narwhal.');
  const last = events[events.length - 1];
  expect(last).toMatchObject({ type: 'run-end', reason: 'answered', llmCalls: 2, toolCalls: 1 });
});

test('POST /api/chat answers 400 with a JSON error message for a bad body', async ({ request }) => {
  const notJson = await request.post('/api/chat', {
    headers: { 'content-type': 'application/json' },
    data: Buffer.from('this is not json'),
  });
  expect(notJson.status()).toBe(400);
  expect(notJson.headers()['content-type']).toMatch(/^application\/json/);
  expect((await notJson.json()).error.message).toMatch(/must be JSON/);

  const noMessage = await request.post('/api/chat', { data: { message: '   ' } });
  expect(noMessage.status()).toBe(400);
  expect((await noMessage.json()).error.message).toBe('"message" must be a non-empty string.');

  const badAgent = await request.post('/api/chat', { data: { message: 'hi', agent: 'nonsense' } });
  expect(badAgent.status()).toBe(400);
  expect((await badAgent.json()).error.message).toMatch(/agent/);
});

test('POST /api/chat says a refused run with its code, as the page gets it: a tool not here, a tool that cannot run now', async ({
  request,
}) => {
  const notHere = await request.post('/api/chat', { data: { message: 'hi', tools: ['no_such_tool'] } });
  expect([notHere.status(), await notHere.json()]).toEqual([
    400,
    { error: { message: 'Tool no_such_tool is not registered.', code: 'tool-unknown' } },
  ]);
  // web_search without a search provider (none here).
  const cannotRun = await request.post('/api/chat', { data: { message: 'hi', tools: ['web_search'] } });
  expect(cannotRun.status()).toBe(400);
  expect((await cannotRun.json()).error).toEqual({
    message: expect.stringMatching(/^Tool web_search is not available: no search provider\. Set WEB_SEARCH_PROVIDER/),
    code: 'tool-unavailable',
  });
});

test('POST /v1/chat/completions not streamed: a client that goes away stops the run and closes its model request', async ({
  baseURL,
}) => {
  await setScenario({ replies: [{ content: 'The longest river is ', endless: 'text', delayMs: 10 }] });
  const left = new AbortController();
  const asked = fetch(`${baseURL}/v1/chat/completions`, {
    method: 'POST',
    signal: left.signal,
    headers: { 'content-type': 'application/json', authorization: 'Bearer any-key-on-loopback' },
    body: JSON.stringify({ model: 'fncall', messages: [{ role: 'user', content: 'Which river is longest?' }] }),
  }).catch((e: unknown) => e);
  await expect.poll(async () => (await chatRequests()).length).toBe(1);
  left.abort(); // a client's timeout, or its process killed: nothing was answered yet
  expect(await asked).toMatchObject({ name: 'AbortError' });
  // The route heard it (the request's signal): the model's endless stream is closed before it finished.
  await expect.poll(async () => (await chatRequests())[0]?.finished, { timeout: 20_000 }).toBe(false);
});
