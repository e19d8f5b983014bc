// GGUF uploads into DATA_DIR/models (wiring only; the API is described in lib/models/upload-http.ts), for the admin.
import { handleLocalModelUpload } from '@/lib/models/upload-http';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = guardRoute('POST /api/local-models', async (request: Request) =>
  handleLocalModelUpload((await appContext()).localModels, request),
);
