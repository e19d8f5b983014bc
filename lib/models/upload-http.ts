// The GGUF upload of Settings → Models → Local over standard Request/Response (no framework): app/api/local-models
// only hands requests here (behind guardRoute, admin only), and the integration tests call the same function.
//   POST /api/local-models?name=<file name>   the file's raw bytes as the body -> 201 {model}
// The body streams to disk as it arrives (lib/http/body.ts: an oversize one stops being read soon after the limit).
// Refusals answer {"error": {"message"}}: 400 no or bad name, 409 the name is taken, 413 over
// LOCAL_MODEL_UPLOAD_MAX_BYTES, 422 not a whole GGUF (the reason said), 507 not enough disk space.
import { bodyChunks, declaredLength } from '../http/body';
import { errorResponse, problem } from '../http/respond';
import type { LocalModelError, LocalModelFiles } from './local-files';
import { isErrorNamed } from '../protocol/errors';

export async function handleLocalModelUpload(files: LocalModelFiles, request: Request): Promise<Response> {
  const name = new URL(request.url).searchParams.get('name');
  if (!name)
    return problem(400, 'Say the file name: POST /api/local-models?name=<file>.gguf with the file as the body.');
  try {
    const model = await files.upload({
      name,
      body: bodyChunks(request.body),
      declaredSize: declaredLength(request.headers),
    });
    return Response.json({ model }, { status: 201 });
  } catch (e) {
    // A refusal with its status (matched by name: the files service may come from another bundle); anything else
    // unexpected, its details in the server log only.
    if (isErrorNamed<LocalModelError>(e, 'LocalModelError')) return problem(e.status, e.message);
    return errorResponse(e, 'a GGUF upload');
  }
}
