// GET /api/artifacts/<conversationId>/<path…>: a file from that conversation's code_interpreter work directory
// (what the code wrote, listed on its tool card). Nothing outside that directory is reachable.
import { artifactResponse } from '@/lib/sandbox/artifact-response';
import { codeWorkDir } from '@/tools/code-interpreter';

export const dynamic = 'force-dynamic';

export async function GET(
  _req: Request,
  { params }: { params: Promise<{ conversationId: string; path: string[] }> },
): Promise<Response> {
  const { conversationId, path } = await params;
  return artifactResponse(codeWorkDir(conversationId), path);
}
