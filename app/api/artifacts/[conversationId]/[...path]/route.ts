// GET /api/artifacts/<conversationId>/<path…>: a file from that conversation's code_interpreter work directory
// (what the code wrote, listed on its tool card). Nothing outside that directory is reachable, and only the
// conversation's owner reaches it: anyone else gets 404, as for a conversation that does not exist. Read from the
// blob store: with S3 set, any instance serves what a tool wrote on another.
import { blobStore } from '@/lib/blob';
import { artifactResponse } from '@/lib/sandbox/artifact-response';
import { problem } from '@/lib/http/respond';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { codeWorkPrefix } from '@/tools/code-interpreter';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(
  'GET /api/artifacts/[conversationId]/[...path]',
  async (_req: Request, { params }: { params: Promise<{ conversationId: string; path: string[] }> }, me) => {
    const { conversationId, path } = await params;
    const ctx = await appContext();
    if (!(await ctx.store.getConversation(me.owner, conversationId)))
      return problem(404, 'No such file in this conversation’s code work directory.');
    return artifactResponse(blobStore(ctx.config), codeWorkPrefix(conversationId), path);
  },
);
