// A run's feed as a text/event-stream answer (POST /api/chat, GET /api/runs/<id>/events): an optional first named
// event, then one `data:` line per feed event; closing the connection ends the reading (and, for a feed that stops
// its run when its reader leaves, the run).
import type { FeedEvent } from '../protocol/events';

export function feedResponse(events: AsyncGenerator<FeedEvent>, head?: { event: string; data: unknown }): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head) controller.enqueue(encoder.encode(`event: ${head.event}\ndata: ${JSON.stringify(head.data)}\n\n`));
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
