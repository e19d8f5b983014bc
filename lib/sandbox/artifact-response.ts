// The HTTP response for one file of a code work directory: only files inside it, typed by name, never rendered
// as a page of our origin (a script the code wrote must not run with the app's cookies). The file is read from the
// blob store (DATA_DIR, or the S3 bucket, so any instance serves what a tool wrote on another), streamed.
import { Readable } from 'node:stream';
import { BlobError, type BlobStore } from '../blob';
import { isInlineImage, mimeOf } from './files';
import { isErrorNamed } from '../protocol/errors';

const MAX_SERVED_BYTES = 100 * 1024 * 1024;

function problem(status: number, message: string): Response {
  return Response.json({ error: { message } }, { status });
}

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** `segments` (the URL's path parts) under `prefix` (the work directory's folder in `store`, ending in "/"). */
export async function artifactResponse(
  store: BlobStore,
  prefix: string,
  segments: readonly string[],
): Promise<Response> {
  const missing = () => problem(404, 'No such file in this conversation’s code work directory.');
  if (segments.length === 0 || segments.some((s) => s === '' || s === '.' || s === '..' || /[\\/\0]/.test(s)))
    return missing();
  const key = prefix + segments.join('/');
  const info = await store.head(key).catch((e: unknown) => {
    if (isErrorNamed<BlobError>(e, 'BlobError') && !store.localPath) throw e; // the bucket could not be asked: not a missing file
    return undefined; // a name that is no key (too long) is no file either
  });
  if (!info) return missing();
  if (info.size > MAX_SERVED_BYTES) return problem(413, 'The file is too large to download from here.');
  const blob = await store.get(key);
  if (!blob) return missing();
  const name = segments[segments.length - 1]!;
  const mime = mimeOf(name);
  return new Response(Readable.toWeb(blob.body) as ReadableStream<Uint8Array>, {
    headers: {
      'content-type': mime,
      'content-length': String(blob.size),
      'content-disposition': contentDisposition(isInlineImage(mime) ? 'inline' : 'attachment', name),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-cache',
    },
  });
}
