// POST /v1/chat/completions: run an agent as an OpenAI-compatible model, streamed (SSE chunks) or not
// (lib/openai-api), as the caller (an API key sent as Authorization: Bearer, a session, or the single user with
// ACCESS_TOKEN): only its saved agents, its conversation stored under it. The body streams into its size limit, so
// the route checks its requests itself (guardRoute), as POST /api/chat does; every error, the checks' refusals
// included, is in OpenAI's shape. Wiring only.
import { limitKey } from '@/lib/auth/viewer';
import { readBodyText } from '@/lib/http/body';
import { MESSAGE_BODY_MAX_BYTES } from '@/lib/http/headers';
import { asOpenAiError } from '@/lib/openai-api/errors';
import { createCompletion } from '@/lib/openai-api/handler';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { optionsRoute, wrongMethodRoute } from '@/lib/server/v1-fallback-routes';

export const dynamic = 'force-dynamic';

export const POST = guardRoute(
  'POST /v1/chat/completions',
  async (request: Request, _context: unknown, me): Promise<Response> => {
    const text = await readBodyText(request, MESSAGE_BODY_MAX_BYTES);
    return createCompletion(await appContext(), me, text, limitKey(me, request.headers), request.signal);
  },
  { answer: asOpenAiError },
);

// OPTIONS: the methods it answers, in Allow (Next's own would list the 405s below too); no CORS.
export const OPTIONS = optionsRoute('OPTIONS /v1/chat/completions', ['POST']);

// The other methods: a 405 with Allow in OpenAI's error shape (Next's own is empty).
export const GET = wrongMethodRoute('GET /v1/chat/completions', ['POST']);
export const PUT = wrongMethodRoute('PUT /v1/chat/completions', ['POST']);
export const PATCH = wrongMethodRoute('PATCH /v1/chat/completions', ['POST']);
export const DELETE = wrongMethodRoute('DELETE /v1/chat/completions', ['POST']);
