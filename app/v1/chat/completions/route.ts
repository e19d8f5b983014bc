// POST /v1/chat/completions: run an agent as an OpenAI-compatible model, streamed (SSE chunks) or not
// (lib/openai-api). The body streams into its size limit, so the route checks its requests itself (guardRoute), as
// POST /api/chat does. Wiring only.
import { readBodyText } from '@/lib/http/body';
import { clientKey } from '@/lib/http/client';
import { MESSAGE_BODY_MAX_BYTES } from '@/lib/http/headers';
import { guardRoute } from '@/lib/http/respond';
import { createCompletion } from '@/lib/openai-api/handler';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

export const POST = guardRoute(async (request: Request): Promise<Response> => {
  const text = await readBodyText(request, MESSAGE_BODY_MAX_BYTES);
  const ctx = await appContext();
  return createCompletion(ctx, text, clientKey(request.headers));
});
