// One uploaded document: its state, or its removal (wiring only; see lib/uploads/http.ts).
import { guardRoute } from '@/lib/http/respond';
import { appContext } from '@/lib/server/context';
import { handleDelete, handleGet } from '@/lib/uploads/http';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

export const GET = guardRoute(async (_request: Request, { params }: Params) =>
  handleGet((await appContext()).uploads, (await params).id),
);

export const DELETE = guardRoute(async (_request: Request, { params }: Params) =>
  handleDelete((await appContext()).uploads, (await params).id),
);
