// The /v1 handlers (lib/openai-api) behind a plain Node HTTP server, as a third-party client meets them: each API key
// in `actors` stands for one user (resolving a real key is the accounts' job; the built app's is covered by
// test/security/openai-api.test.ts). Errors the harness itself answers (an unknown key, an unknown route) and what a
// handler throws (a limit, a fault) are answered in OpenAI's shape, as the app's guard answers them.
import http from 'node:http';
import type { Actor } from '../../lib/chat/actor';
import { errorResponse } from '../../lib/http/respond';
import { asOpenAiError } from '../../lib/openai-api/errors';
import { createCompletion, listModels, retrieveModel } from '../../lib/openai-api/handler';
import type { AppContext } from '../../lib/server/context';

export interface ApiServer {
  /** The base URL OpenAI clients take (ends with /v1). */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startApiServer(ctx: AppContext, actors: Record<string, Actor>): Promise<ApiServer> {
  const api = http.createServer((req, res) => {
    // Aborts when the client goes before its answer is written, as a route's request.signal does.
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const actor = actors[(req.headers.authorization ?? '').replace(/^Bearer /, '')];
      // What a handler throws (a limit: 429; a fault: 500 with an error id) is answered as the app's route guard does.
      const handled = async () => {
        try {
          return !actor
            ? Response.json({ error: { message: 'unknown key' } }, { status: 401 })
            : req.method === 'GET' && req.url === '/v1/models'
              ? await listModels(ctx, actor.owner)
              : req.method === 'GET' && req.url?.startsWith('/v1/models/')
                ? await retrieveModel(ctx, actor.owner, decodeURIComponent(req.url.slice('/v1/models/'.length)))
                : req.method === 'POST' && req.url === '/v1/chat/completions'
                  ? await createCompletion(
                      ctx,
                      actor,
                      Buffer.concat(chunks).toString('utf8'),
                      'test-client',
                      gone.signal,
                    )
                  : Response.json({ error: { message: 'no such route' } }, { status: 404 });
        } catch (e) {
          return errorResponse(e, `${req.method} ${req.url}`);
        }
      };
      const answer = await asOpenAiError(await handled());
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      if (!answer.body) return res.end();
      const reader = answer.body.getReader();
      res.on('close', () => void reader.cancel());
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(value);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const port = (api.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    close: () => new Promise((resolve) => api.close(() => resolve())),
  };
}
