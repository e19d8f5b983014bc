// The reference a message carries for an uploaded file: `files/<sha256>/<name>`, relative to DATA_DIR. The page
// never sees a server path; file-aware tools stage the bytes (DATA_DIR/files/<sha256>) under the real name.
import path from 'node:path';

const REF = /^files\/([0-9a-f]{64})\/([^/\\\u0000-\u001f\u202a-\u202e\u2066-\u2069]+)$/;

// The sanitiser lives beside the attachment names (lib/llm), which number clashing names by it.
export { BIDI_CONTROLS, safeFileName } from '../llm/file-name';

export function fileRef(hash: string, name: string): string {
  return `files/${hash}/${name}`;
}

export function parseFileRef(ref: string): { hash: string; name: string } | undefined {
  const m = REF.exec(ref);
  if (!m || m[2] === '.' || m[2] === '..') return undefined;
  return { hash: m[1]!, name: m[2]! };
}

export function filesDir(dataDir: string): string {
  return path.join(dataDir, 'files');
}

/** Where parsed documents are cached, by content hash. */
export function parsedCacheDir(dataDir: string): string {
  return path.join(dataDir, 'parsed');
}

/** Where the bytes of an upload are kept. */
export function storedFilePath(dataDir: string, hash: string): string {
  return path.join(filesDir(dataDir), hash);
}
