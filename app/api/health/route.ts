import { modelStatus } from '@/lib/config';
import { appContext } from '@/lib/server/context';
import { guardRoute } from '@/lib/server/route';
import { telemetryStatus } from '@/lib/telemetry';

export const dynamic = 'force-dynamic';

export const GET = guardRoute(async () => {
  const { configured, model } = modelStatus((await appContext()).config);
  return Response.json({ ok: true, model: { configured, name: model ?? null }, telemetry: telemetryStatus() });
});
