// The blob store: where uploads (files/<sha256>), their parses (parsed/<sha256>.json) and tool work files
// (work/<conversation>/<tool>/<path>) are kept. Two implementations: a local directory (DATA_DIR, the default; put
// it on a volume every instance mounts to share it) and an S3 bucket (s3.ts). Keys are plain relative paths with
// forward slashes; bodies are streams, never whole files in memory.
import { Readable } from 'node:stream';

export interface BlobInfo {
  key: string;
  size: number;
  /** Changes whenever the bytes do (S3's ETag; size and mtime for a local file). */
  etag: string;
}

export interface BlobBody {
  body: Readable;
  size: number;
}

export interface BlobStore {
  /** 'local' (a directory) or 's3'. */
  readonly kind: 'local' | 's3';
  /** Stores `size` bytes read from `body` under `key` (replacing what was there; readers never see half of it). */
  put(key: string, body: Readable, size: number): Promise<{ etag: string }>;
  /** The bytes under `key` as a stream, or undefined when there is none. */
  get(key: string): Promise<BlobBody | undefined>;
  head(key: string): Promise<BlobInfo | undefined>;
  /** Removes `key`; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Every blob whose key starts with `prefix` (a folder: "" or ending in "/"), at any depth, sorted by key. */
  list(prefix: string): Promise<BlobInfo[]>;
  /** The local file that holds `key`, when the store is a directory (readers may use it where they are). */
  localPath?(key: string): string;
}

export class BlobError extends Error {
  override name = 'BlobError';
}

const MAX_KEY_LENGTH = 1024;

/** Throws unless `key` is a plain relative path: no empty, "." or ".." parts, no backslash, NUL or leading "/". */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (!key || key.length > MAX_KEY_LENGTH || parts.some((p) => p === '' || p === '.' || p === '..' || /[\\\0]/.test(p)))
    throw new BlobError(`"${key}" is not a blob key (a relative path of plain names)`);
  return key;
}

/** Throws unless `prefix` is "" or a key followed by "/". */
export function checkPrefix(prefix: string): string {
  if (prefix !== '') checkKey(prefix.replace(/\/$/, '') || '/');
  if (prefix !== '' && !prefix.endsWith('/')) throw new BlobError(`"${prefix}" is not a folder prefix (ends in "/")`);
  return prefix;
}

/** `body` passed through, failing with a BlobError when it holds more or fewer than `size` bytes. */
export function exactly(key: string, body: Readable, size: number): Readable {
  async function* counted(): AsyncGenerator<Buffer> {
    let seen = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      seen += chunk.byteLength;
      if (seen > size) throw new BlobError(`${key}: more than the ${size} bytes announced came`);
      yield chunk;
    }
    if (seen !== size) throw new BlobError(`${key}: ${seen} bytes came where ${size} were announced`);
  }
  return Readable.from(counted(), { objectMode: false });
}
