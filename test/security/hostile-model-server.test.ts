// Finding: a user's model server that answers without end took the whole app down. A user may name any public server
// as a connection (here on loopback, as ALLOW_PRIVATE_MODEL_URLS=1 lets a user's connection reach it); one that
// streamed 64 KB deltas killed `next start` with "JavaScript heap out of memory" after 28 MB, and Test connection
// against an endless model list grew the server by 750 MB in its 6 seconds; with each answer cut at 32 MB, one that
// answered 31 MB and a tool call each time still held 2.4 GB for one run. Now each answer is read up to its limit
// (a million characters, 32 MB on the wire): the run ends in a clear error, Test says the list is none, a run of
// answers just under the limit goes its course, and the server stays up for everyone.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerModelsResult } from '../../lib/llm/server-models';
import type { ConnectionView } from '../../lib/models/service';
import { peakRssGrowth, request, startApp, type App } from './support/app';
import { chat, resultAs, signUp, type Session } from './support/accounts';
import { writeEndless } from '../support/endless-response';

/** The hostile server gives up after this much: more than any limit, so a reader without one reads it all. */
const STOP_AFTER = 512 * 1024 * 1024;

let app: App;
let hostile: http.Server;
/** Its chat answers never end (its model list is an ordinary one); under `/endless-list` the model list never ends. */
let baseURL: string;
let user: Session;

const endless = (res: http.ServerResponse, head: string, piece: Buffer, tail: string) =>
  writeEndless(res, head, piece, tail, STOP_AFTER);

beforeAll(async () => {
  const delta = Buffer.from(
    `data: ${JSON.stringify({
      id: 'c',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: { content: 'y'.repeat(64 * 1024) }, finish_reason: null }],
    })}\n\n`,
  );
  const callAndStop =
    [
      {
        delta: {
          tool_calls: [
            { index: 0, id: 'call-1', type: 'function', function: { name: 'current_time', arguments: '{}' } },
          ],
        },
      },
      { delta: {}, finish_reason: 'tool_calls' },
    ]
      .map(
        (c) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, finish_reason: null, ...c }] })}\n\n`,
      )
      .join('') + 'data: [DONE]\n\n';
  hostile = http.createServer((req, res) => {
    req.resume();
    if (req.url === '/near-limit/v1/chat/completions') {
      // 917,504 characters, then a call of current_time: the run goes on to its last model call.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 14; i++) res.write(delta);
      return res.end(callAndStop);
    }
    if (req.url === '/v1/chat/completions') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return endless(res, '', delta, 'data: [DONE]\n\n');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.endsWith('/v1/models') && !req.url.startsWith('/endless-list'))
      return res.end('{"object":"list","data":[{"id":"endless"}]}');
    endless(res, '{"object":"list","data":[{"id":"endless","pad":"', Buffer.alloc(64 * 1024, 0x78), '"}]}');
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/v1`;
  app = await startApp({ env: { AUTH: 'required', ALLOW_PRIVATE_MODEL_URLS: '1' } });
  const admin = await signUp(app, 'admin@example.com');
  await resultAs(app, admin, 'updateServerSettings', [{ signUp: 'open' }]);
  user = await signUp(app, 'user@example.com');
}, 120_000);

afterAll(async () => {
  await app?.stop();
  hostile?.closeAllConnections();
  await new Promise((r) => hostile?.close(r));
});

describe("a user's model server that answers without end", () => {
  it('Test connection reads its model list up to 16 MB and says it is none', async () => {
    const { result, beforeMb, peakMb } = await peakRssGrowth(app.pid, () =>
      resultAs<ServerModelsResult>(app, user, 'testConnection', [
        { baseURL: baseURL.replace(/\/v1$/, '/endless-list/v1') },
      ]),
    );
    expect(result).toMatchObject({ ok: true, value: { ok: false, problem: 'not-openai' } });
    expect(result.ok && !result.value.ok && result.value.message).toMatch(/with more than 16 MB: that is no list/);
    expect(peakMb - beforeMb).toBeLessThan(256);
  }, 60_000);

  it('a chat ends in a clear error at a million characters, and the server stays up', async () => {
    const added = await resultAs<ConnectionView>(app, user, 'addConnection', [{ name: 'Endless', baseURL }]);
    if (!added.ok) throw new Error(added.error);
    const {
      result: run,
      beforeMb,
      peakMb,
    } = await peakRssGrowth(app.pid, () => chat(app, user, { message: 'hello', model: `${added.value.id}/endless` }));
    expect(run.events.at(-1)).toMatchObject({
      type: 'run-end',
      reason: 'error',
      error: {
        code: 'answer-too-long',
        message: "The model's answer passed 1,000,000 characters without ending: it was cut there.",
      },
    });
    expect(peakMb - beforeMb).toBeLessThan(256);
    // Everyone else's server: still there.
    expect((await request(app.url, '/api/health')).status).toBe(401);
  }, 180_000);

  it('answers just under the limit, each with a tool call, run to the last model call and the server stays up', async () => {
    const added = await resultAs<ConnectionView>(app, user, 'addConnection', [
      { name: 'Near the limit', baseURL: baseURL.replace(/\/v1$/, '/near-limit/v1') },
    ]);
    if (!added.ok) throw new Error(added.error);
    const {
      result: run,
      beforeMb,
      peakMb,
    } = await peakRssGrowth(app.pid, () =>
      chat(app, user, { message: 'hello', model: `${added.value.id}/endless`, tools: ['current_time'] }),
    );
    expect(run.events.at(-1)).toMatchObject({ type: 'run-end', reason: 'max-iterations', llmCalls: 20 });
    // ~300 MB measured: each answer is held in the run's history, events and store.
    expect(peakMb - beforeMb).toBeLessThan(1024);
    expect((await request(app.url, '/api/health')).status).toBe(401);
  }, 600_000);
});
