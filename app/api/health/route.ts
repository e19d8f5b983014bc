import { modelStatus } from '@/lib/config';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

export async function GET() {
  const { configured, model } = modelStatus((await appContext()).config);
  return Response.json({ ok: true, model: { configured, name: model ?? null } });
}
