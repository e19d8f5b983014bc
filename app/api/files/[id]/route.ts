// One uploaded document of the signed-in user: its state, or its removal (wiring only; see lib/uploads/http.ts).
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { handleDelete, handleGet } from '@/lib/uploads/http';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ id: string }> };

export const GET = guardRoute('GET /api/files/[id]', async (_request: Request, { params }: Params, me) =>
  handleGet((await appContext()).uploads, me.owner, (await params).id),
);

export const DELETE = guardRoute('DELETE /api/files/[id]', async (_request: Request, { params }: Params, me) =>
  handleDelete((await appContext()).uploads, me.owner, (await params).id),
);
