// A local model download's progress as it happens (wiring only; see lib/models/download-events.ts), for the admin.
import { handleDownloadEvents } from '@/lib/models/download-events';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = guardRoute('GET /api/local-models/downloads', async (request: Request) =>
  handleDownloadEvents((await appContext()).localModels, request),
);
