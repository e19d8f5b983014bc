import { loadConfig, modelStatus } from '@/lib/config';
import { telemetryStatus } from '@/lib/telemetry';

export const dynamic = 'force-dynamic';

export function GET() {
  const { configured, model } = modelStatus(loadConfig());
  return Response.json({ ok: true, model: { configured, name: model ?? null }, telemetry: telemetryStatus() });
}
