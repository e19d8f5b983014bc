// Uploads (wiring only; the API is described in lib/uploads/http.ts), for the signed-in user.
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { handleList, handleUpload } from '@/lib/uploads/http';

export const dynamic = 'force-dynamic';

export const POST = guardRoute('POST /api/files', async (request: Request, _context: unknown, me) =>
  handleUpload((await appContext()).uploads, me.owner, request),
);

export const GET = guardRoute('GET /api/files', async (request: Request, _context: unknown, me) =>
  handleList((await appContext()).uploads, me.owner, request),
);
