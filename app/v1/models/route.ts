// GET /v1/models: every agent as an OpenAI-compatible model (lib/openai-api). Wiring only.
import { guardRoute } from '@/lib/http/respond';
import { listModels } from '@/lib/openai-api/handler';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(async () => listModels(await appContext()));
