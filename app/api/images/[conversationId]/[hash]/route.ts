// GET /api/images/<conversationId>/<sha256>: an image uploaded to that conversation (wiring only; see
// lib/uploads/image-response.ts).
import { guardRoute } from '@/lib/http/respond';
import { appContext } from '@/lib/server/context';
import { uploadedImageResponse } from '@/lib/uploads/image-response';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(
  async (_req: Request, { params }: { params: Promise<{ conversationId: string; hash: string }> }) => {
    const { conversationId, hash } = await params;
    const ctx = await appContext();
    return uploadedImageResponse(ctx.store, ctx.config.dataDir, conversationId, hash);
  },
);
