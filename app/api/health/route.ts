import { parseModelId } from '@/lib/models/ids';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { telemetryStatus } from '@/lib/telemetry';

export const dynamic = 'force-dynamic';

export const GET = guardRoute('GET /api/health', async (_request, _context, me) => {
  const ctx = await appContext();
  // The default model without asking any server: OPENAI_MODEL, or the first GGUF file (a page connection's models
  // are known only once its server is asked).
  const configured = await ctx.models.anyConfigured(me.owner);
  const name = ctx.models.envConfigured
    ? (parseModelId((await ctx.models.defaultModelId(me.owner)) ?? '')?.name ?? null)
    : null;
  return Response.json({ ok: true, model: { configured, name }, telemetry: telemetryStatus() });
});
