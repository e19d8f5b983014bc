// Uploads (wiring only; the API is described in lib/documents/http.ts).
import { getDocumentService } from '@/lib/documents';
import { handleList, handleUpload } from '@/lib/documents/http';

export const dynamic = 'force-dynamic';

export function POST(request: Request): Promise<Response> {
  return handleUpload(getDocumentService(), request);
}

export function GET(request: Request): Response {
  return handleList(getDocumentService(), request);
}
