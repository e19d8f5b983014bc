// GET /v1/models: the builtin agents and the caller's saved agents as OpenAI-compatible models (lib/openai-api).
// The caller is who the request's API key (Authorization: Bearer) or session is; ACCESS_TOKEN is the single user.
// Wiring only.
import { asOpenAiError } from '@/lib/openai-api/errors';
import { listModels } from '@/lib/openai-api/handler';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(
  'GET /v1/models',
  async (_request: Request, _context: unknown, me) => listModels(await appContext(), me.owner),
  { answer: asOpenAiError },
);
