// Images a tool returned (an MCP image result), kept by content hash in the conversation's work directory,
// DATA_DIR/work/<conversationId>/images/<sha256>, so that events and exports carry a URL (lib/documents/image-url.ts)
// instead of the image inlined as base64. They are checked as uploaded images are (lib/documents/image.ts), live and
// die with the conversation (its work directory is deleted with it), and are served to its owner only. With S3 the
// bucket holds them too (work/<conversationId>/images/<sha256>, inside the conversation's work folder, deleted with it),
// so that any instance serves an image a tool returned on another.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { dataStore } from '../blob';
import { safeFileName } from './file-ref';
import { checkImage, type ImageLimits } from './image';
import { imageMime, sniffImage, type ImageKind } from './image-kind';
import { conversationImageUrl } from './image-url';

export function toolImagesDir(dataDir: string, conversationId: string): string {
  return path.join(dataDir, 'work', safeFileName(conversationId), 'images');
}

function toolImageKey(conversationId: string, hash: string): string {
  return `work/${safeFileName(conversationId)}/images/${hash}`;
}

export interface KeptToolImage {
  hash: string;
  kind: ImageKind;
  mime: string;
  bytes: number;
  /** Where the page loads it (and what the tool's result names it by). */
  url: string;
}

/** Checks and keeps one image; rejects with a DocumentError saying why it is not an image that may be kept. */
export async function keepToolImage(
  dataDir: string,
  conversationId: string,
  bytes: Uint8Array,
  limits: ImageLimits,
): Promise<KeptToolImage> {
  const { kind } = await checkImage(bytes, 'The image', limits);
  const hash = createHash('sha256').update(bytes).digest('hex');
  const dir = toolImagesDir(dataDir, conversationId);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${randomUUID()}`);
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, path.join(dir, hash)); // the same bytes again: the same file
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  const store = dataStore(dataDir);
  if (!store.localPath)
    await store.put(toolImageKey(conversationId, hash), Readable.from([Buffer.from(bytes)]), bytes.byteLength);
  return {
    hash,
    kind,
    mime: imageMime(kind),
    bytes: bytes.byteLength,
    url: conversationImageUrl(conversationId, hash),
  };
}

/** A kept image's bytes and format, or undefined when the conversation holds no such image. */
export async function readToolImage(
  dataDir: string,
  conversationId: string,
  hash: string,
): Promise<{ bytes: Buffer; kind: ImageKind } | undefined> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
  const local = await readFile(path.join(toolImagesDir(dataDir, conversationId), hash)).catch(() => undefined);
  const bytes = local ?? (await fromBucket(dataDir, toolImageKey(conversationId, hash)));
  const kind = bytes && sniffImage(bytes);
  return bytes && kind ? { bytes, kind } : undefined;
}

/** The image kept under `key` in the bucket (another instance kept it), or undefined: no bucket, or no such image. */
async function fromBucket(dataDir: string, key: string): Promise<Buffer | undefined> {
  const store = dataStore(dataDir);
  if (store.localPath) return undefined;
  const blob = await store.get(key);
  if (!blob) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
