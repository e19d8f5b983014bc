// GET /v1/models: the builtin agents and the caller's saved agents as OpenAI-compatible models (lib/openai-api).
// The caller is who the request's API key (Authorization: Bearer) or session is; ACCESS_TOKEN is the single user.
// Wiring only.
import { asOpenAiError } from '@/lib/openai-api/errors';
import { listModels } from '@/lib/openai-api/handler';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { optionsRoute, wrongMethodRoute } from '@/lib/server/v1-fallback-routes';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(
  'GET /v1/models',
  async (_request: Request, _context: unknown, me) => listModels(await appContext(), me.owner),
  { answer: asOpenAiError },
);

// OPTIONS: the methods it answers, in Allow (Next's own would list the 405s below too); no CORS.
export const OPTIONS = optionsRoute('OPTIONS /v1/models', ['GET']);

// The other methods: a 405 with Allow in OpenAI's error shape (Next's own is empty).
export const POST = wrongMethodRoute('POST /v1/models', ['GET']);
export const PUT = wrongMethodRoute('PUT /v1/models', ['GET']);
export const PATCH = wrongMethodRoute('PATCH /v1/models', ['GET']);
export const DELETE = wrongMethodRoute('DELETE /v1/models', ['GET']);
