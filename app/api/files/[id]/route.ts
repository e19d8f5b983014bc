// One uploaded document: its state, or its removal (wiring only; see lib/uploads/http.ts).
import { appContext } from '@/lib/server/context';
import { handleDelete, handleGet } from '@/lib/uploads/http';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleGet((await appContext()).uploads, (await params).id);
}

export async function DELETE(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return handleDelete((await appContext()).uploads, (await params).id);
}
