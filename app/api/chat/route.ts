// POST /api/chat for non-browser clients: JSON {conversationId?, message, agent?, tools?, fncallMode?, files?} in
// (lib/chat/requests.ts), text/event-stream out: first `event: turn` with the ids, then one `data:` line per event
// of the run's feed (the same the page gets, lib/chat/feed.ts), ending with run-end. Closing the connection stops
// the run. Acts for the signed-in user (a session, or an API key sent as Authorization: Bearer); another user's
// conversation or upload answers 404. Wiring only.
import { runFeed } from '@/lib/chat/feed';
import { ChatRequestSchema, parseRequest } from '@/lib/chat/requests';
import { feedResponse } from '@/lib/chat/sse';
import { readBodyText } from '@/lib/http/body';
import { limitKey } from '@/lib/auth/viewer';
import { MESSAGE_BODY_MAX_BYTES } from '@/lib/http/headers';
import { codedOf, isErrorNamed } from '@/lib/protocol/errors';
import { startLimited } from '@/lib/http/run-limits';
import { appContext } from '@/lib/server/context';
import { guardRoute, statusOf } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

/** A refusal as the other routes answer one (lib/http/respond.ts errorResponse): its message, and its code when it has
 *  one of ours, which a client can say in its own language as the page does. */
function problem(status: number, message: string, code?: string): Response {
  return Response.json({ error: code ? { message, code } : { message } }, { status });
}

export const POST = guardRoute('POST /api/chat', async (request: Request, _context: unknown, me): Promise<Response> => {
  const text = await readBodyText(request, MESSAGE_BODY_MAX_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return problem(400, 'The request body must be JSON: {"message": "...", "conversationId"?: "..."}.');
  }
  const ctx = await appContext();
  let started;
  try {
    const req = parseRequest(ChatRequestSchema, body);
    started = await startLimited(
      ctx.runLimits,
      limitKey(me, request.headers),
      () => ctx.chat.send(me, req),
      (runId) => ctx.runs.ended(runId),
    );
  } catch (e) {
    // A limit (429, with Retry-After) and a fault (500 with an error id, the rest in the log) are answered by
    // guardRoute; a refusal (its own 4xx status) is said here.
    const status = statusOf(e, 500);
    if (isErrorNamed(e, 'RateLimitError') || status >= 500) throw e;
    return problem(status, e instanceof Error ? e.message : String(e), codedOf(e)?.code);
  }
  const events = runFeed(ctx.runs, ctx.store, me.owner, started.runId, { stopOnLeave: true });
  const ids = { conversationId: started.conversationId, turnId: started.turnId, runId: started.runId };
  return feedResponse(events, { event: 'turn', data: ids });
});
