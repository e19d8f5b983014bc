// Uploads (wiring only; the API is described in lib/uploads/http.ts).
import { guardRoute } from '@/lib/http/respond';
import { appContext } from '@/lib/server/context';
import { handleList, handleUpload } from '@/lib/uploads/http';

export const dynamic = 'force-dynamic';

export const POST = guardRoute(async (request: Request) => handleUpload((await appContext()).uploads, request));

export const GET = guardRoute(async (request: Request) => handleList((await appContext()).uploads, request));
