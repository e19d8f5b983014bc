// Any path under /v1 that no route serves (/v1/embeddings, /v1/completions, /v1 itself), by any method: a 404 in
// OpenAI's error shape naming it, after the checks every /v1 route makes (lib/server/v1-fallback-routes.ts). The
// served routes' own paths win over this one. Wiring only.
import { notServedRoute } from '@/lib/server/v1-fallback-routes';

export const dynamic = 'force-dynamic';

export const GET = notServedRoute('GET /v1/[[...path]]');
export const POST = notServedRoute('POST /v1/[[...path]]');
export const PUT = notServedRoute('PUT /v1/[[...path]]');
export const PATCH = notServedRoute('PATCH /v1/[[...path]]');
export const DELETE = notServedRoute('DELETE /v1/[[...path]]');
export const OPTIONS = notServedRoute('OPTIONS /v1/[[...path]]');
