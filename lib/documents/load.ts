// The one entry point from a file to a ParsedDocument: the kind is sniffed from the bytes, the matching parser runs,
// and the result is cached by content hash (DATA_DIR/parsed/<sha256>.json), so a file is parsed once however many
// times it is uploaded, staged or searched.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../config';
import { documentLimits, formatBytes, type DocumentLimits } from './limits';
import { parseDocumentBytes, sha256 } from './parse';
import { DocumentError, type ParsedDocument } from './types';

/** Bump when parser output changes, so cached parses made by older code are not reused. */
const PARSE_VERSION = 1;

export function parsedCacheDir(dataDir = loadConfig().dataDir): string {
  return path.join(dataDir, 'parsed');
}

/** Parses a local file (already staged or uploaded). Throws DocumentError with a readable message. */
export async function loadDocument(
  filePath: string,
  name = path.basename(filePath),
  opts: { limits?: DocumentLimits; cacheDir?: string | false } = {},
): Promise<ParsedDocument> {
  const limits = opts.limits ?? documentLimits();
  let bytes: Buffer;
  try {
    const info = await stat(filePath);
    if (!info.isFile()) throw new Error('not a file');
    if (info.size > limits.uploadMaxBytes) {
      throw new DocumentError(
        `${name} is ${formatBytes(info.size)}, over the ${formatBytes(limits.uploadMaxBytes)} limit per file.`,
        'too-large',
      );
    }
    bytes = await readFile(filePath);
  } catch (e) {
    if (e instanceof DocumentError) throw e;
    throw new DocumentError(`${name}: the file cannot be read.`, 'not-found');
  }
  const hash = sha256(bytes);
  const cacheDir = opts.cacheDir === undefined ? parsedCacheDir() : opts.cacheDir;
  const cacheFile = cacheDir ? path.join(cacheDir, `${hash}.json`) : undefined;
  if (cacheFile) {
    const cached = await readCached(cacheFile);
    if (cached) return { ...cached, name };
  }
  const doc = await parseDocumentBytes(bytes, name, limits);
  if (cacheFile) await writeCached(cacheFile, doc);
  return doc;
}

async function readCached(file: string): Promise<ParsedDocument | undefined> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as { version: number; doc: ParsedDocument };
    return data.version === PARSE_VERSION ? data.doc : undefined;
  } catch {
    return undefined; // missing or damaged: parse again
  }
}

/** Written to a temporary name then renamed, so a reader never sees half a file. */
async function writeCached(file: string, doc: ParsedDocument): Promise<void> {
  const tmp = `${file}.${randomUUID()}.tmp`; // unique across the instances sharing DATA_DIR
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(tmp, JSON.stringify({ version: PARSE_VERSION, doc }));
    await rename(tmp, file);
  } catch {
    // A cache that cannot be written (a full disk) only costs a later re-parse; its half-written file goes.
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}
