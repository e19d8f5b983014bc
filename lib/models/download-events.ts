// A download's progress as Server-Sent Events (app/api/local-models/downloads wires it; admin only):
//   GET /api/local-models/downloads?name=<file name>  -> text/event-stream, one `data: <DownloadJob>` per change
// (the job's state now, then each progress report, at most one per 250 ms, and its end), closed once the download
// has ended. 404 when no download of that name is known. The page follows it instead of asking again and again.
import { problem } from '../http/respond';
import type { LocalModelFiles } from './local-files';

export function handleDownloadEvents(files: LocalModelFiles, request: Request): Response {
  const name = new URL(request.url).searchParams.get('name') ?? '';
  const events = name ? files.follow(name) : undefined;
  if (!events) return problem(404, `No download of "${name}" is known.`);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await events.next();
      if (done) return controller.close();
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(value)}\n\n`));
    },
    async cancel() {
      await events.return(undefined);
    },
  });
  return new Response(stream, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform' },
  });
}
