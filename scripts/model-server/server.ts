/** A scripted OpenAI-compatible Chat Completions server over plain node:http, for tests, benchmarks and e2e. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Scenario, ScriptedReply } from '../../lib/protocol/fixture';
import { imageSize, promptColour, solidPng } from './images';
import { standInEmbedding } from './embed';
import { planReply, randomId, type PlannedReply } from './reply';
import { ECHO_SCENARIO, ScriptExhaustedError, ScriptPlayer, type RecordedRequest, type Responder } from './script';
import {
  completionBody,
  endlessDelta,
  errorBody,
  errorKindForStatus,
  sseLine,
  stampContent,
  streamEvents,
  type ResponseMeta,
} from './sse';

export interface ModelServer {
  /** Base URL for an OpenAI client; ends with /v1. */
  url: string;
  port: number;
  /** Every request in arrival order, faulted ones included. Cleared in place by reset(). */
  requests: RecordedRequest[];
  /** Replaces the script and rewinds its replay positions; recorded requests are kept. */
  setScenario(s: Scenario | Responder): void;
  /** Clears recorded requests and rewinds the current script to its start. */
  reset(): void;
  /** Stops listening and destroys every open connection, stalled ones included. */
  close(): Promise<void>;
}

export interface ModelServerOptions {
  port?: number;
  host?: string;
  /** Default: echo the last user message. */
  scenario?: Scenario | Responder;
  /** Serve /_control/* so another process (Playwright tests) can set the scenario, reset, and read requests. */
  control?: boolean;
  /** Listed by GET /v1/models and used when a request names no model. */
  model?: string;
  /** More model names GET /v1/models lists after `model` (a server with several models). */
  moreModels?: string[];
  /** Listed with every model as vLLM says it (`max_model_len`): the models' context length in tokens. */
  contextLength?: number;
  /** When set, /v1/* answers 401 to a request without `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Serve POST /v1/images/generations (images.ts); default true. 'url': always answer by address (as servers that
   *  store their images do). False: it answers 404, as a server without it. */
  images?: boolean | 'url';
  /** Serve POST /v1/embeddings with the stand-in embedding model (embed.ts). Default true; false answers 404 there,
   *  as a chat-only server does. */
  embeddings?: boolean;
}

export const DEFAULT_MODEL = 'scripted-model';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    ...CORS,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'x-request-id': randomId('req_'),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, code?: string | null): void {
  const kind = errorKindForStatus(status);
  sendJson(res, status, errorBody(message, kind.type, code === undefined ? kind.code : code));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) return resolve();
    res.write(text, () => resolve());
  });
}

/** Resolves false instead of throwing when the wait was aborted (client gone or server closing). */
async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (ms <= 0) return !signal.aborted;
  try {
    await sleep(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function createModelServer(opts: ModelServerOptions = {}): Promise<ModelServer> {
  const model = opts.model ?? DEFAULT_MODEL;
  const host = opts.host ?? '127.0.0.1';
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  let script: Scenario | Responder = opts.scenario ?? ECHO_SCENARIO;
  let player = new ScriptPlayer(script);

  async function streamReply(res: ServerResponse, reply: ScriptedReply, plan: PlannedReply, meta: ResponseMeta) {
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const signal = AbortSignal.any([gone.signal, closing.signal]);
    res.writeHead(200, {
      ...CORS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': randomId('req_'),
    });
    res.flushHeaders();

    const events = streamEvents(plan, meta);
    const fault = reply.fault;
    const faultAt = fault && fault.kind !== 'status' ? Math.max(0, Math.min(fault.afterChunks, events.length)) : -1;
    for (let i = 0; i <= events.length; i++) {
      if (i === faultAt && fault) {
        if (fault.kind === 'cut') {
          // Destroying the socket skips the chunked terminator, so the client sees a truncated body.
          res.socket?.destroy();
          return;
        }
        if (fault.kind === 'stream-error') {
          const kind = errorKindForStatus(500);
          const error = { type: kind.type, code: null, param: null, ...fault.error };
          await write(res, `data: ${JSON.stringify({ error })}\n\n`);
          await write(res, 'data: [DONE]\n\n');
          res.end();
          return;
        }
        if (fault.kind === 'stall' && !(await pause(fault.ms, signal))) return;
      }
      const event = events[i];
      if (!event) break;
      const wait = i === 0 ? plan.ttftMs : plan.delayMs;
      if (wait > 0 && !(await pause(wait, signal))) return;
      if (signal.aborted) return;
      await write(
        res,
        sseLine(reply.stampChunks ? stampContent(event, performance.timeOrigin + performance.now()) : event),
      );
    }
    if (plan.endless) {
      // Never finishes: more of the same until the client leaves (or the server closes).
      while (await pause(Math.max(5, plan.delayMs), signal)) await write(res, sseLine(endlessDelta(plan, meta)));
      return;
    }
    res.end();
  }

  async function jsonReply(res: ServerResponse, reply: ScriptedReply, plan: PlannedReply, meta: ResponseMeta) {
    const fault = reply.fault;
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const signal = AbortSignal.any([gone.signal, closing.signal]);
    const wait = (fault?.kind === 'stall' ? fault.ms : 0) + plan.ttftMs + plan.delayMs;
    if (!(await pause(wait, signal))) return;
    if (fault?.kind === 'stream-error') {
      const kind = errorKindForStatus(500);
      sendJson(res, 500, { error: { type: kind.type, code: null, param: null, ...fault.error } });
      return;
    }
    const text = JSON.stringify(completionBody(plan, meta));
    if (fault?.kind === 'cut') {
      res.writeHead(200, {
        ...CORS,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      });
      await write(res, text.slice(0, Math.floor(text.length / 2)));
      res.socket?.destroy();
      return;
    }
    sendJson(res, 200, text);
  }

  async function chat(res: ServerResponse, rec: RecordedRequest, parsed: boolean) {
    if (!parsed) return sendError(res, 400, 'Request body is not valid JSON.');
    const body = rec.body;
    if (!body || typeof body !== 'object' || !Array.isArray(body.messages)) {
      return sendError(res, 400, "'messages' is a required property and must be an array.");
    }
    let reply: ScriptedReply;
    try {
      reply = await player.next(rec);
    } catch (err) {
      if (err instanceof ScriptExhaustedError) return sendError(res, 500, err.message, 'script_exhausted');
      return sendError(res, 500, `scripted model server: responder threw: ${(err as Error)?.message ?? String(err)}`);
    }
    const fault = reply.fault;
    if (fault?.kind === 'status') {
      const headers: Record<string, string> =
        fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {};
      const kind = errorKindForStatus(fault.status);
      const payload = fault.body ?? errorBody(`Scripted error: HTTP ${fault.status}`, kind.type, kind.code);
      return sendJson(res, fault.status, payload, headers);
    }
    const plan = planReply(reply, body);
    if (plan.endless === 'arguments' && !plan.toolCalls.length)
      return sendError(res, 500, 'scripted model server: endless arguments need a tool call in the reply');
    const meta: ResponseMeta = {
      id: randomId('chatcmpl-'),
      created: Math.floor(Date.now() / 1000),
      model: typeof body.model === 'string' && body.model ? body.model : model,
      includeUsage: body.stream_options?.include_usage === true,
    };
    if (body.stream === true) return streamReply(res, reply, plan, meta);
    return jsonReply(res, reply, plan, meta);
  }

  /** Images answered by address (response_format "url"), served at GET /v1/_images/<id>.png. */
  const served = new Map<string, Buffer>();

  function images(req: IncomingMessage, res: ServerResponse, body: unknown, parsed: boolean) {
    const b = body as { prompt?: unknown; size?: unknown; response_format?: unknown } | undefined;
    if (!parsed || !b || typeof b !== 'object') return sendError(res, 400, 'Request body is not valid JSON.');
    if (typeof b.prompt !== 'string' || !b.prompt.trim())
      return sendError(res, 400, "'prompt' is a required property.", 'missing_prompt');
    const { width, height } = imageSize(b.size);
    const png = solidPng(width, height, promptColour(b.prompt));
    if (b.response_format !== 'url' && opts.images !== 'url')
      return sendJson(res, 200, {
        created: Math.floor(Date.now() / 1000),
        data: [{ b64_json: png.toString('base64') }],
      });
    const id = randomId('img_');
    served.set(id, png);
    const url = `http://${req.headers.host ?? '127.0.0.1'}/v1/_images/${id}.png`;
    return sendJson(res, 200, { created: Math.floor(Date.now() / 1000), data: [{ url }] });
  }

  /** OpenAI's embeddings answer: one vector per input, as floats or (the SDK's default) base64 float32. */
  function embeddings(res: ServerResponse, body: unknown, parsed: boolean) {
    const b = (parsed && body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const input = typeof b.input === 'string' ? [b.input] : b.input;
    if (!Array.isArray(input) || !input.length || !input.every((t) => typeof t === 'string'))
      return sendError(res, 400, "'input' must be a string or a non-empty list of strings.");
    const base64 = b.encoding_format === 'base64';
    const data = input.map((text: string, index) => {
      const v = standInEmbedding(text);
      const embedding = base64 ? Buffer.from(Float32Array.from(v).buffer).toString('base64') : v;
      return { object: 'embedding', index, embedding };
    });
    const tokens = input.reduce((n: number, t: string) => n + Math.ceil(t.length / 4), 0);
    return sendJson(res, 200, {
      object: 'list',
      data,
      model: typeof b.model === 'string' && b.model ? b.model : model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    let body: unknown = undefined;
    let parsed = true;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
        parsed = false;
      }
    }
    const rec: RecordedRequest = { method, path, headers: flatHeaders(req), body, at: Date.now() };
    requests.push(rec);
    res.on('close', () => {
      rec.closedAt = Date.now();
      rec.finished = res.writableFinished;
    });

    if (method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    if (method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'ok' });
    // An image answered by address is public, as a provider's signed image URL is.
    const image = /^\/v1\/_images\/([\w-]+)\.png$/.exec(path);
    if (method === 'GET' && image && served.has(image[1]!)) {
      const png = served.get(image[1]!)!;
      res.writeHead(200, { ...CORS, 'content-type': 'image/png', 'content-length': String(png.length) });
      return res.end(png);
    }
    if (opts.control && path.startsWith('/_control/')) {
      requests.pop(); // control calls are not model requests
      if (method === 'PUT' && path === '/_control/scenario' && parsed && body && typeof body === 'object') {
        script = body as Scenario;
        player = new ScriptPlayer(script);
        requests.length = 0;
        return sendJson(res, 200, { ok: true });
      }
      if (method === 'POST' && path === '/_control/reset') {
        requests.length = 0;
        player = new ScriptPlayer(script);
        return sendJson(res, 200, { ok: true });
      }
      if (method === 'GET' && path === '/_control/requests') return sendJson(res, 200, requests);
      return sendError(res, 404, `Unknown control call: ${method} ${path}`);
    }
    if (opts.apiKey && path.startsWith('/v1/') && req.headers.authorization !== `Bearer ${opts.apiKey}`)
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    if (method === 'GET' && path === '/v1/models') {
      const names = [model, ...(opts.moreModels ?? []).filter((m) => m !== model)];
      return sendJson(res, 200, {
        object: 'list',
        data: names.map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'scripted',
          ...(opts.contextLength ? { max_model_len: opts.contextLength } : {}),
        })),
      });
    }
    if (opts.images !== false && method === 'POST' && /^(\/[\w.-]+)*\/v1\/images\/generations$/.test(path))
      return images(req, res, body, parsed);
    if (/^(\/[\w.-]+)*\/v1\/embeddings$/.test(path) && opts.embeddings !== false) {
      if (method !== 'POST') return sendError(res, 405, `Method ${method} not allowed on ${path}.`);
      return embeddings(res, body, parsed);
    }
    // Also under a prefix, as a server mounted below one answers (DashScope's /compatible-mode/v1).
    if (/^(\/[\w.-]+)*\/v1\/chat\/completions$/.test(path)) {
      if (method !== 'POST') return sendError(res, 405, `Method ${method} not allowed on ${path}.`);
      return chat(res, rec, parsed);
    }
    return sendError(res, 404, `Unknown path: ${method} ${path}`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed) sendError(res, 500, `scripted model server: ${String(err)}`);
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (opts.port ?? 0);

  return {
    url: `http://${urlHost(host)}:${port}/v1`,
    port,
    requests,
    setScenario(s) {
      script = s;
      player = new ScriptPlayer(script);
    },
    reset() {
      requests.length = 0;
      player = new ScriptPlayer(script);
    },
    close() {
      return new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
