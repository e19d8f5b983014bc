// GET /api/artifacts/<conversationId>/<path…>: a file from that conversation's code_interpreter work directory
// (what the code wrote, listed on its tool card). Nothing outside that directory is reachable.
import { artifactResponse } from '@/lib/sandbox/artifact-response';
import { guardRoute } from '@/lib/http/respond';
import { codeWorkDir } from '@/tools/code-interpreter';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(
  async (_req: Request, { params }: { params: Promise<{ conversationId: string; path: string[] }> }) => {
    const { conversationId, path } = await params;
    return artifactResponse(codeWorkDir(conversationId), path);
  },
);
