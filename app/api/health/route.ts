import { guardRoute } from '@/lib/http/respond';
import { parseModelId } from '@/lib/models/ids';
import { appContext } from '@/lib/server/context';
import { telemetryStatus } from '@/lib/telemetry';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(async () => {
  const ctx = await appContext();
  // The default model without asking any server: OPENAI_MODEL, or the first GGUF file (a page connection's models
  // are known only once its server is asked).
  const configured = await ctx.models.anyConfigured(ctx.viewer);
  const name = ctx.models.envConfigured
    ? (parseModelId((await ctx.models.defaultModelId(ctx.viewer)) ?? '')?.name ?? null)
    : null;
  return Response.json({ ok: true, model: { configured, name }, telemetry: telemetryStatus() });
});
