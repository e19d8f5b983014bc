// One uploaded document: its state, or its removal (wiring only; see lib/documents/http.ts).
import { getDocumentService } from '@/lib/documents';
import { handleDelete, handleGet } from '@/lib/documents/http';
import { guardRoute } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

export const GET = guardRoute(async (_request: Request, { params }: Params) =>
  handleGet(getDocumentService(), (await params).id),
);

export const DELETE = guardRoute(async (_request: Request, { params }: Params) =>
  handleDelete(getDocumentService(), (await params).id),
);
