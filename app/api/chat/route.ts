// POST /api/chat for non-browser clients: JSON {conversationId?, message, agent?, tools?, fncallMode?, files?} in,
// text/event-stream out: first `event: turn` with the ids, then one `data:` line per AgentEvent (the same union the
// page gets), ending with run-end. Closing the connection stops the run.
import { getChatService } from '@/lib/chat';
import { withoutInspectorFields } from '@/lib/chat/browser-feed';
import { AttachmentError, attachmentItems } from '@/lib/chat/attachments';
import { clientKey } from '@/lib/http/client';
import { MESSAGE_BODY_MAX_BYTES } from '@/lib/http/headers';
import { readBodyText } from '@/lib/http/body';
import { RateLimitError } from '@/lib/http/rate-limit';
import { guardRoute } from '@/lib/http/respond';
import { startLimited } from '@/lib/http/run-limits';
import { prepareMcpTools } from '@/lib/mcp';
import { defaultSettings } from '@/lib/store/settings';
import type { ConversationSettings } from '@/lib/store/types';

export const dynamic = 'force-dynamic';

function problem(status: number, message: string): Response {
  return Response.json({ error: { message } }, { status });
}

function settingsFrom(body: Record<string, unknown>): Partial<ConversationSettings> | string {
  const settings: Partial<ConversationSettings> = {};
  if (body.agent !== undefined) {
    if (body.agent !== 'fncall' && body.agent !== 'react' && body.agent !== 'assistant')
      return '"agent" must be "fncall", "react" or "assistant"';
    settings.agent = body.agent;
  }
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools) || !body.tools.every((t) => typeof t === 'string'))
      return '"tools" must be a list of tool names';
    settings.tools = body.tools;
  }
  if (body.fncallMode !== undefined) {
    if (body.fncallMode !== 'native' && body.fncallMode !== 'nous' && body.fncallMode !== 'qwen')
      return '"fncallMode" must be native, nous or qwen';
    settings.fncallMode = body.fncallMode;
  }
  return Object.keys(settings).length ? settings : {};
}

export const POST = guardRoute(async (request: Request): Promise<Response> => {
  const text = await readBodyText(request, MESSAGE_BODY_MAX_BYTES);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    return problem(400, 'The request body must be JSON: {"message": "...", "conversationId"?: "..."}.');
  }
  if (!body || typeof body !== 'object' || typeof body.message !== 'string' || !body.message.trim()) {
    return problem(400, '"message" must be a non-empty string.');
  }
  if (body.conversationId !== undefined && typeof body.conversationId !== 'string')
    return problem(400, '"conversationId" must be a string.');
  const settings = settingsFrom(body);
  if (typeof settings === 'string') return problem(400, settings);
  let files;
  try {
    files = body.files === undefined ? [] : await attachmentItems(body.files);
  } catch (e) {
    if (e instanceof AttachmentError) return problem(400, e.message);
    throw e;
  }

  const service = getChatService();
  // The request (or its conversation) may name MCP tools: those must be registered before the agent is made.
  await prepareMcpTools(
    settings.tools ??
      (typeof body.conversationId === 'string'
        ? service.store.getConversation(body.conversationId)?.settings.tools
        : defaultSettings().tools),
  );
  await service.documentsSettled(typeof body.conversationId === 'string' ? body.conversationId : undefined);
  let started;
  try {
    started = startLimited(clientKey(request.headers), () =>
      service.send({
        conversationId: body.conversationId as string | undefined,
        content: files.length ? [{ text: body.message as string }, ...files] : (body.message as string),
        settings: Object.keys(settings).length ? settings : undefined,
      }),
    );
  } catch (e) {
    if (e instanceof RateLimitError) throw e; // answered 429 by guardRoute
    return problem(400, e instanceof Error ? e.message : String(e));
  }
  const { live } = started;
  const encoder = new TextEncoder();
  const events = live.follow({ onLeave: () => live.stop() });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(
          `event: turn\ndata: ${JSON.stringify({ conversationId: started.conversationId, turnId: started.turnId, runId: started.runId })}\n\n`,
        ),
      );
    },
    async pull(controller) {
      const next = await events.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`data: ${JSON.stringify(withoutInspectorFields(next.value))}\n\n`));
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
});
