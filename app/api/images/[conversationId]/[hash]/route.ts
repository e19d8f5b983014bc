// GET /api/images/<conversationId>/<sha256>: an image uploaded to, or returned by a tool in, a conversation of the
// signed-in user (wiring only; see lib/uploads/image-response.ts).
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { toolImageResponse, uploadedImageResponse } from '@/lib/uploads/image-response';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ conversationId: string; hash: string }> };

export const GET = guardRoute(
  'GET /api/images/[conversationId]/[hash]',
  async (_request: Request, { params }: Params, me) => {
    const { conversationId, hash } = await params;
    const ctx = await appContext();
    const uploaded = await uploadedImageResponse(ctx.store, me.owner, ctx.config.dataDir, conversationId, hash);
    if (uploaded.status !== 404) return uploaded;
    return toolImageResponse(ctx.store, me.owner, ctx.config.dataDir, conversationId, hash);
  },
);
