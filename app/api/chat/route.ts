// POST /api/chat for non-browser clients: JSON {conversationId?, message, agent?, tools?, fncallMode?, files?} in
// (lib/chat/requests.ts), text/event-stream out: first `event: turn` with the ids, then one `data:` line per event
// of the run's feed (the same the page gets, lib/chat/feed.ts), ending with run-end. Closing the connection stops
// the run. Wiring only.
import { runFeed } from '@/lib/chat/feed';
import { ChatRequestSchema, parseRequest } from '@/lib/chat/requests';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

const MAX_BODY_BYTES = 1_000_000;

function problem(status: number, message: string): Response {
  return Response.json({ error: { message } }, { status });
}

export async function POST(request: Request): Promise<Response> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return problem(413, 'The request body is too large.');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return problem(400, 'The request body must be JSON: {"message": "...", "conversationId"?: "..."}.');
  }
  const ctx = await appContext();
  let started;
  try {
    started = await ctx.chat.send(parseRequest(ChatRequestSchema, body));
  } catch (e) {
    return problem(400, e instanceof Error ? e.message : String(e));
  }
  const encoder = new TextEncoder();
  const events = runFeed(ctx.runs, ctx.store, started.runId, { stopOnLeave: true });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const ids = { conversationId: started.conversationId, turnId: started.turnId, runId: started.runId };
      controller.enqueue(encoder.encode(`event: turn\ndata: ${JSON.stringify(ids)}\n\n`));
    },
    async pull(controller) {
      const next = await events.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
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
    },
  });
}
