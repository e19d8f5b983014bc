// The reference a message carries for an uploaded file: `files/<sha256>/<name>`, relative to DATA_DIR. The page
// never sees a server path; file-aware tools stage the bytes (DATA_DIR/files/<sha256>) under the real name.
import path from 'node:path';

const REF = /^files\/([0-9a-f]{64})\/([^/\\\u0000-\u001f\u202a-\u202e\u2066-\u2069]+)$/;

/** Bidirectional embedding, override and isolate controls: they make "evil\u202Efdp.exe" read as "evilexe.pdf". */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

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

const MAX_NAME_LENGTH = 200;

/** A single safe path segment: no separators, no '..', no control, bidi-override or reserved characters, no
 *  leading dots. */
export function safeFileName(raw: string): string {
  let name = raw
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.\s]+/, '')
    .trim();
  if (name.length > MAX_NAME_LENGTH) {
    const ext = path.extname(name).slice(0, 20);
    name = name.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
  }
  return name || 'file';
}
