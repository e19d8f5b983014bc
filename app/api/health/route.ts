import { loadConfig, modelStatus } from '@/lib/config';

export const dynamic = 'force-dynamic';

export function GET() {
  const { configured, model } = modelStatus(loadConfig());
  return Response.json({ ok: true, model: { configured, name: model ?? null } });
}
