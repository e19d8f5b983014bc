import { loadConfig, modelStatus } from '@/lib/config';
import { guardRoute } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(() => {
  const { configured, model } = modelStatus(loadConfig());
  return Response.json({ ok: true, model: { configured, name: model ?? null } });
});
