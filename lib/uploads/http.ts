// The upload API over standard Request/Response (no framework): app/api/files only hands requests here, and the
// integration tests call the same functions.
//   POST   /api/files?name=<file name>[&conversationId=<id>]   raw bytes in the body -> 201 {document, conversationId, notice?, noticeCode?}
//   POST   /api/files?name=<file name>&agentId=<id>            raw bytes -> 201 {document, agent}: a saved agent's document
//   GET    /api/files?conversationId=<id>                       -> {documents}
//   GET    /api/files/<id>                                      -> {document}
//   DELETE /api/files/<id>                                      -> {document}
// Each acts for the signed-in user's scope: another user's conversation or document answers 404, as an unknown one.
import { bodyChunks } from '../http/body';
import type { RateLimitError } from '../http/rate-limit';
import { unexpected } from '../http/respond';
import { codedOf, isErrorNamed, statusOf } from '../protocol/errors';
import type { OwnerScope } from '../store/owner';
import type { DocumentService } from './service';
import type { UploadError } from './service';

function problem(status: number, message: string, code?: string): Response {
  return Response.json({ error: code ? { message, code } : { message } }, { status });
}

function failure(e: unknown): Response {
  if (isErrorNamed<UploadError>(e, 'UploadError')) return problem(e.status, e.message, e.code);
  if (isErrorNamed<RateLimitError>(e, 'RateLimitError'))
    return Response.json(
      { error: { message: e.message, code: e.code } },
      { status: 429, headers: { 'retry-after': String(e.retryAfterS) } },
    );
  const status = statusOf(e, 500);
  if (status < 500) return problem(status, e instanceof Error ? e.message : String(e), codedOf(e)?.code);
  return unexpected(e, 'an upload request');
}

export async function handleUpload(service: DocumentService, owner: OwnerScope, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const name = url.searchParams.get('name');
  if (!name) return problem(400, 'Say the file name: POST /api/files?name=<file name> with the bytes as the body.');
  const conversationId = url.searchParams.get('conversationId') || undefined;
  const agentId = url.searchParams.get('agentId') || undefined;
  const length = request.headers.get('content-length');
  const declaredSize = length === null ? undefined : Number(length);
  try {
    if (agentId) {
      const body = bodyChunks(request.body);
      return Response.json(await service.uploadToAgent(owner, { agentId, name, body, declaredSize }), { status: 201 });
    }
    const { document, notice, noticeCode } = await service.upload(owner, {
      conversationId,
      name,
      body: bodyChunks(request.body), // an oversize body stops being read soon after the limit
      declaredSize,
    });
    return Response.json({ document, conversationId: document.conversationId, notice, noticeCode }, { status: 201 });
  } catch (e) {
    return failure(e);
  }
}

export async function handleList(service: DocumentService, owner: OwnerScope, request: Request): Promise<Response> {
  const conversationId = new URL(request.url).searchParams.get('conversationId');
  if (!conversationId) return problem(400, 'Say which conversation: GET /api/files?conversationId=<id>.');
  try {
    return Response.json({ documents: await service.list(owner, conversationId) });
  } catch (e) {
    return failure(e);
  }
}

export async function handleGet(service: DocumentService, owner: OwnerScope, id: string): Promise<Response> {
  const document = await service.get(owner, id);
  return document ? Response.json({ document }) : problem(404, 'This document no longer exists.');
}

export async function handleDelete(service: DocumentService, owner: OwnerScope, id: string): Promise<Response> {
  try {
    return Response.json({ document: await service.remove(owner, id) });
  } catch (e) {
    return failure(e);
  }
}
