// Uploads (wiring only; the API is described in lib/documents/http.ts).
import { getDocumentService } from '@/lib/documents';
import { handleList, handleUpload } from '@/lib/documents/http';
import { guardRoute } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const POST = guardRoute((request: Request) => handleUpload(getDocumentService(), request));

export const GET = guardRoute((request: Request) => handleList(getDocumentService(), request));
