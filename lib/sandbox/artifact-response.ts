// The HTTP response for one file of a code work directory: only files inside it, typed by name, never rendered
// as a page of our origin (a script the code wrote must not run with the app's cookies).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInlineImage, mimeOf, resolveInside } from './files';

const MAX_SERVED_BYTES = 100 * 1024 * 1024;

function problem(status: number, message: string): Response {
  return Response.json({ error: { message } }, { status });
}

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function artifactResponse(root: string, segments: readonly string[]): Promise<Response> {
  const file = await resolveInside(root, segments);
  if (!file) return problem(404, 'No such file in this conversation’s code work directory.');
  const info = await stat(file);
  if (!info.isFile()) return problem(404, 'No such file in this conversation’s code work directory.');
  if (info.size > MAX_SERVED_BYTES) return problem(413, 'The file is too large to download from here.');
  const name = path.basename(file);
  const mime = mimeOf(name);
  const body = await readFile(file);
  return new Response(new Uint8Array(body), {
    headers: {
      'content-type': mime,
      'content-length': String(body.byteLength),
      'content-disposition': contentDisposition(isInlineImage(mime) ? 'inline' : 'attachment', name),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-cache',
    },
  });
}
