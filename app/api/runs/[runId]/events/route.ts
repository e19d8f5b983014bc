// GET /api/runs/<id>/events: a run's feed as text/event-stream, from its first event: live while it is in progress
// (on this instance or another sharing the database), else from its log; it ends with the run. Reading it never
// stops the run. The same `data:` lines as POST /api/chat (lib/chat/feed.ts). Another user's run reads as unknown
// (404). Wiring only.
import { runFeed } from '@/lib/chat/feed';
import { feedResponse } from '@/lib/chat/sse';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ runId: string }> };

export const GET = guardRoute(
  'GET /api/runs/[runId]/events',
  async (_request: Request, { params }: Params, me): Promise<Response> => {
    const { runId } = await params;
    const ctx = await appContext();
    if (!(await ctx.store.getRun(me.owner, runId)))
      return Response.json({ error: { message: 'This run does not exist.' } }, { status: 404 });
    return feedResponse(runFeed(ctx.runs, ctx.store, me.owner, runId, { stopOnLeave: false }));
  },
);
