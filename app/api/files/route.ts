// Uploads (wiring only; the API is described in lib/uploads/http.ts).
import { getDocumentService } from '@/lib/uploads';
import { handleList, handleUpload } from '@/lib/uploads/http';

export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return handleUpload(getDocumentService(), request);
}

export function GET(request: Request): Promise<Response> {
  return handleList(getDocumentService(), request);
}
