// GET /v1/models/{model}: one agent of the caller's model list (OpenAI's retrieve), by id or name as a completion
// names it (lib/openai-api). Another user's agent is an unknown model (404). Wiring only.
import { asOpenAiError } from '@/lib/openai-api/errors';
import { retrieveModel } from '@/lib/openai-api/handler';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { optionsRoute, wrongMethodRoute } from '@/lib/server/v1-fallback-routes';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ model: string }> };

export const GET = guardRoute(
  'GET /v1/models/[model]',
  async (_request: Request, { params }: Params, me) =>
    retrieveModel(await appContext(), me.owner, (await params).model),
  { answer: asOpenAiError },
);

// OPTIONS: the methods it answers, in Allow (Next's own would list the 405s below too); no CORS.
export const OPTIONS = optionsRoute('OPTIONS /v1/models/[model]', ['GET']);

// The other methods: a 405 with Allow in OpenAI's error shape (Next's own is empty).
export const POST = wrongMethodRoute('POST /v1/models/[model]', ['GET']);
export const PUT = wrongMethodRoute('PUT /v1/models/[model]', ['GET']);
export const PATCH = wrongMethodRoute('PATCH /v1/models/[model]', ['GET']);
export const DELETE = wrongMethodRoute('DELETE /v1/models/[model]', ['GET']);
