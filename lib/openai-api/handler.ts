// POST /v1/chat/completions and GET /v1/models as web Responses (the route handlers in app/v1 only wire them): the
// request checked, the agent it names run and stored like any run (a conversation of its own, visible in the page
// and the inspector), its feed answered as OpenAI answers. Errors are OpenAI's error shape:
// {"error": {"message", "type", "param", "code"}}.
import { runFeed } from '../chat/feed';
import type { LiveRuns } from '../chat/live-runs';
import { titleFrom, type ChatService } from '../chat/service';
import { errorMessage, faultMessage, logError } from '../llm/error-report';
import { contentText } from '../llm/schema';
import { codedOf, isErrorNamed, statusOf } from '../protocol/errors';
import { startLimited } from '../http/run-limits';
import type { RunLimiter } from '../http/rate-limit';
import type { Actor } from '../chat/actor';
import type { OwnerScope } from '../store/owner';
import type { ChatStore } from '../store/types';
import { CompletionFold, type RunFailedError } from './completion';
import { STORE_BUSY_RETRY_AFTER_S, storeBusyMessage } from '../http/respond';
import { apiError, errorKind } from './errors';
import { apiModels, findModel, MODEL_OWNER, type ApiModel } from './models';
import { runFailure, runFailureEvent, runFailureResponse } from './run-failure';
import { checkForAgent, InvalidRequestError, parseCompletionRequest } from './request';

export interface ApiDeps {
  chat: ChatService;
  runs: LiveRuns;
  store: Pick<ChatStore, 'getRunEvents' | 'listAgents'>;
  /** The process's run limits (MAX_CONCURRENT_RUNS, MAX_RUNS_PER_MINUTE). */
  runLimits: RunLimiter;
  /** The agents the caller may name: the saved ones and the plugins' (default: the store's). */
  agents?: Pick<ChatStore, 'listAgents'>;
}

/** The agents the owner may name, as OpenAI's model list. */
export async function listModels(deps: Pick<ApiDeps, 'store' | 'agents'>, owner: OwnerScope): Promise<Response> {
  const models = await apiModels(deps.agents ?? deps.store, owner);
  const created = Math.floor(Date.now() / 1000);
  return Response.json({
    object: 'list',
    data: models.map((m) => ({ id: m.id, object: 'model', created, owned_by: MODEL_OWNER, name: m.name })),
  });
}

/** One model of the owner's list, by id or name as a completion names it (OpenAI's GET /v1/models/{model}). */
export async function retrieveModel(
  deps: Pick<ApiDeps, 'store' | 'agents'>,
  owner: OwnerScope,
  wanted: string,
): Promise<Response> {
  const models = await apiModels(deps.agents ?? deps.store, owner);
  const model = findModel(models, wanted);
  if (!model) return unknownModel(wanted, models, 'model');
  const created = Math.floor(Date.now() / 1000);
  return Response.json({ id: model.id, object: 'model', created, owned_by: MODEL_OWNER, name: model.name });
}

/** A refusal's param and code, as far as it has them. */
function refusalFields(e: InvalidRequestError): { param?: string; code?: string } {
  return { ...(e.param ? { param: e.param } : {}), ...(e.code ? { code: e.code } : {}) };
}

/** A model none of the owner's: OpenAI's 404 model_not_found. OpenAI names no param when a completion names one
 *  (`model` is the request's field, but the error is the model's), and `model` when GET /v1/models/{model} does. */
function unknownModel(wanted: string, models: readonly ApiModel[], param?: 'model'): Response {
  return apiError(
    404,
    `The model "${wanted}" does not exist: GET /v1/models lists the agents (${models.map((m) => m.id).join(', ')}).`,
    'invalid_request_error',
    { code: 'model_not_found', ...(param ? { param } : {}) },
  );
}

/**
 * Why a run did not start, in OpenAI's shape. A refusal (an error with its own 4xx status: a request the agent cannot
 * honour, a saved agent that is gone or not the caller's, a tool the admin does not allow, a model or tool this server
 * does not have) is said as it is, with the type OpenAI gives its status and its own code when it has one; so is a
 * coded 5xx (an MCP server that cannot be reached: 503 `mcp_server_down`) and a database locked by another program
 * (503 `store_busy`, with Retry-After), which pass. Anything else is a fault of ours: a 500 `server_error` whose message is only an error id (the stack, with the server's
 * paths, in the log under it), which OpenAI's clients retry (they retry no 400, 403 or 404).
 */
function notStarted(e: unknown): Response {
  if (isErrorNamed<InvalidRequestError>(e, 'InvalidRequestError'))
    return apiError(400, e.message, 'invalid_request_error', refusalFields(e));
  // The database locked by another program: a 503 that passes, with Retry-After, which OpenAI's clients retry.
  if (isErrorNamed(e, 'StoreBusyError'))
    return apiError(
      503,
      storeBusyMessage(e),
      'server_error',
      { code: 'store_busy' },
      {
        'retry-after': String(STORE_BUSY_RETRY_AFTER_S),
      },
    );
  const status = statusOf(e, 500);
  if (status >= 500 && !codedOf(e))
    return apiError(500, faultMessage(logError('a /v1 run failed to start', e)), 'server_error');
  const kind = errorKind(status);
  // Its own code in OpenAI's spelling (agent-gone: agent_gone), else OpenAI's for the status.
  const code = codedOf(e)?.code.replaceAll('-', '_') ?? kind.code;
  return apiError(status, errorMessage(e), kind.type, code ? { code } : {});
}

/** Runs the completion a request body asks for, as `actor` (its agents, its conversation). `client` is who the run
 *  counts against (run limits); `signal` aborts when the client has gone (the request's signal): its run stops, as a
 *  streamed one does when its response is cancelled. */
export async function createCompletion(
  deps: ApiDeps,
  actor: Actor,
  bodyText: string,
  client: string,
  signal?: AbortSignal,
): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return apiError(400, 'The request body must be JSON (a Chat Completions request).', 'invalid_request_error');
  }
  let parsed;
  try {
    parsed = parseCompletionRequest(body);
  } catch (e) {
    if (isErrorNamed<InvalidRequestError>(e, 'InvalidRequestError'))
      return apiError(400, e.message, 'invalid_request_error', refusalFields(e));
    throw e;
  }
  const { request, messages, clientTools, generateCfg, runCfg, toolChoice } = parsed;
  const models = await apiModels(deps.agents ?? deps.store, actor.owner);
  const model = findModel(models, request.model);
  if (!model) return unknownModel(request.model, models);
  const lastUser = messages.findLast((m) => m.role === 'user');
  let started;
  try {
    started = await startLimited(
      deps.runLimits,
      client,
      () =>
        deps.chat.sendMessages(actor, {
          settings: { ...model.settings, generateCfg: { ...model.settings.generateCfg, ...generateCfg } },
          messages,
          title: `API · ${model.name}: ${titleFrom(contentText(lastUser?.content ?? ''))}`,
          clientTools,
          run: { generateCfg: runCfg, ...(toolChoice ? { toolChoice } : {}) },
          check: (agent) => checkForAgent(parsed, agent),
        }),
      (runId) => deps.runs.ended(runId),
    );
  } catch (e) {
    if (isErrorNamed(e, 'RateLimitError')) throw e; // answered 429 by guardRoute, with Retry-After
    return notStarted(e);
  }
  // The answer names the model as the client asked for it (a saved agent's name, not its id), as OpenAI's do.
  const fold = new CompletionFold(`chatcmpl-${started.runId}`, request.model);
  const events = runFeed(deps.runs, deps.store, actor.owner, started.runId, { stopOnLeave: true });
  if (!request.stream) {
    // Nothing is sent before the end, so only the request's signal tells that the client left (a timeout, a killed
    // process): the feed is left, which stops the run and closes its model request.
    const leave = () => void events.return(undefined);
    if (signal?.aborted) leave();
    signal?.addEventListener('abort', leave, { once: true });
    try {
      for await (const e of events) fold.apply(e);
    } finally {
      signal?.removeEventListener('abort', leave);
    }
    if (signal?.aborted) return apiError(499, 'The client closed the request.', 'invalid_request_error');
    try {
      return Response.json(fold.completion(), { headers: { 'x-run-id': started.runId } });
    } catch (e) {
      if (isErrorNamed<RunFailedError>(e, 'RunFailedError'))
        return runFailureResponse(runFailure(e.error, e.toolsRan), started.runId);
      throw e;
    }
  }
  const includeUsage = request.stream_options?.include_usage === true;
  const encoder = new TextEncoder();
  const send = (c: ReadableStreamDefaultController<Uint8Array>, value: unknown) =>
    c.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      send(controller, fold.start());
    },
    async pull(controller) {
      // A pull that enqueues nothing is not called again: read on until an event makes a chunk, or the end.
      for (;;) {
        const next = await events.next();
        if (next.done) break;
        const chunks = fold.apply(next.value);
        for (const chunk of chunks) send(controller, chunk);
        if (chunks.length) return;
      }
      try {
        for (const chunk of fold.end(includeUsage)) send(controller, chunk);
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      } catch (e) {
        if (!isErrorNamed<RunFailedError>(e, 'RunFailedError')) throw e;
        send(controller, runFailureEvent(runFailure(e.error, e.toolsRan)));
      }
      controller.close();
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-run-id': started.runId,
    },
  });
}
