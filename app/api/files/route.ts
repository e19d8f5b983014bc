// Uploads (wiring only; the API is described in lib/uploads/http.ts).
import { appContext } from '@/lib/server/context';
import { handleList, handleUpload } from '@/lib/uploads/http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  return handleUpload((await appContext()).uploads, request);
}

export async function GET(request: Request): Promise<Response> {
  return handleList((await appContext()).uploads, request);
}
