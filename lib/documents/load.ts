// The one entry point from a file to a ParsedDocument: the kind is sniffed from the bytes, the matching parser runs,
// and the result is cached by content hash (DATA_DIR/parsed/<sha256>.json), so a file is parsed once however many
// times it is uploaded, staged or searched. A CSV or TSV is never held whole: it is hashed and read as a stream of
// text (parse/delimited.ts), so its cost is its markdown, not its rows (docs/documents.md, "Memory").
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { defaultConfig } from '../config';
import { parsedCacheDir } from './file-ref';
import { documentLimits, formatBytes, type DocumentLimits } from './limits';
import { parseDocumentBytes, parsedDocument, sha256 } from './parse';
import { parseDelimited } from './parse/delimited';
import { headDecidesKind, sniffKind } from './sniff';
import { EncodingSniffer, type TextEncodingName } from './text-decode';
import { DocumentError, type ParsedDocument } from './types';
import { isErrorNamed } from '../protocol/errors';

/** Bump when parser output changes, so cached parses made by older code are not reused. */
const PARSE_VERSION = 1;
/** What a kind is told by (sniff.ts reads no further for text). */
const HEAD_BYTES = 64 * 1024;
/** The bytes a streamed file is read in. */
const PIECE_BYTES = 1024 * 1024;

export { parsedCacheDir };

/** Parses a local file (already staged or uploaded). Throws DocumentError with a readable message. Unless `opts`
 *  say otherwise, within the default limits and cached under an empty environment's DATA_DIR (./data/parsed). */
export async function loadDocument(
  filePath: string,
  name = path.basename(filePath),
  opts: { limits?: DocumentLimits; cacheDir?: string | false } = {},
): Promise<ParsedDocument> {
  const limits = opts.limits ?? documentLimits();
  let head: Uint8Array;
  try {
    const info = await stat(filePath);
    if (!info.isFile()) throw new Error('not a file');
    if (info.size > limits.uploadMaxBytes) {
      throw new DocumentError(
        `${name} is ${formatBytes(info.size)}, over the ${formatBytes(limits.uploadMaxBytes)} limit per file.`,
        'too-large',
      );
    }
    head = await readHead(filePath, HEAD_BYTES);
  } catch (e) {
    if (isErrorNamed<DocumentError>(e, 'DocumentError')) throw e;
    throw new DocumentError(`${name}: the file cannot be read.`, 'not-found');
  }
  const cacheDir = opts.cacheDir === undefined ? parsedCacheDir(defaultConfig().dataDir) : opts.cacheDir;
  const cacheFileOf = (hash: string) => (cacheDir ? path.join(cacheDir, `${hash}.json`) : undefined);
  const kind = headDecidesKind(head) ? sniffKind(head, name) : undefined;
  if (kind === 'csv' || kind === 'tsv') {
    const { hash, encoding } = await hashAndEncoding(filePath, name);
    const cacheFile = cacheFileOf(hash);
    const cached = cacheFile && (await readCached(cacheFile));
    if (cached) return { ...cached, name };
    const doc = parsedDocument(hash, name, kind, { pages: await parseDelimitedFile(filePath, kind, encoding) });
    if (cacheFile) await writeCached(cacheFile, doc);
    return doc;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch {
    throw new DocumentError(`${name}: the file cannot be read.`, 'not-found');
  }
  const cacheFile = cacheFileOf(sha256(bytes));
  if (cacheFile) {
    const cached = await readCached(cacheFile);
    if (cached) return { ...cached, name };
  }
  const doc = await parseDocumentBytes(bytes, name, limits);
  if (cacheFile) await writeCached(cacheFile, doc);
  return doc;
}

async function readHead(file: string, length: number): Promise<Uint8Array> {
  const handle = await open(file);
  try {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

type Encoding = ReturnType<EncodingSniffer['result']>;

/** One read of the file: its content hash, and the encoding decodeText would read it in. */
async function hashAndEncoding(file: string, name: string): Promise<{ hash: string; encoding: Encoding }> {
  const hash = createHash('sha256');
  const sniffer = new EncodingSniffer();
  try {
    for await (const piece of createReadStream(file, { highWaterMark: PIECE_BYTES }) as AsyncIterable<Buffer>) {
      hash.update(piece);
      sniffer.push(piece);
    }
  } catch {
    throw new DocumentError(`${name}: the file cannot be read.`, 'not-found');
  }
  return { hash: hash.digest('hex'), encoding: sniffer.result() };
}

/** A CSV or TSV file parsed from its text as a stream; read in `fallback` when it is not valid in `encoding`. */
async function parseDelimitedFile(file: string, kind: 'csv' | 'tsv', encoding: Encoding) {
  const { skip, fallback } = encoding;
  try {
    return await parseDelimited(() => decodedPieces(file, encoding.encoding, skip, fallback !== undefined), kind);
  } catch (e) {
    if (!fallback || (e as { code?: unknown }).code !== 'ERR_ENCODING_INVALID_ENCODED_DATA') throw e;
    return await parseDelimited(() => decodedPieces(file, fallback, 0, false), kind);
  }
}

async function* decodedPieces(
  file: string,
  encoding: TextEncodingName,
  skip: number,
  fatal: boolean,
): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { fatal });
  for await (const piece of createReadStream(file, {
    start: skip,
    highWaterMark: PIECE_BYTES,
  }) as AsyncIterable<Buffer>) {
    const text = decoder.decode(piece, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function readCached(file: string): Promise<ParsedDocument | undefined> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as { version: number; doc: ParsedDocument };
    return data.version === PARSE_VERSION ? data.doc : undefined;
  } catch {
    return undefined; // missing or damaged: parse again
  }
}

/** Written to a temporary name then renamed, so a reader never sees half a file; written paragraph by paragraph,
 *  so a large document never becomes one string. */
async function writeCached(file: string, doc: ParsedDocument): Promise<void> {
  const tmp = `${file}.${randomUUID()}.tmp`; // unique across the instances sharing DATA_DIR
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await pipeline(Readable.from(cacheJson(doc)), createWriteStream(tmp));
    await rename(tmp, file);
  } catch {
    // A cache that cannot be written (a full disk) only costs a later re-parse; its half-written file goes.
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}

/** `{"version": …, "doc": …}` as JSON.stringify writes it, in pieces. */
function* cacheJson(doc: ParsedDocument): Generator<string> {
  const { pages, ...meta } = doc;
  yield `{"version":${PARSE_VERSION},"doc":${JSON.stringify(meta).slice(0, -1)},"pages":[`;
  for (let i = 0; i < pages.length; i++) {
    const { paragraphs, ...page } = pages[i]!;
    yield `${i ? ',' : ''}${JSON.stringify(page).slice(0, -1)},"paragraphs":[`;
    for (let j = 0; j < paragraphs.length; j++) yield `${j ? ',' : ''}${JSON.stringify(paragraphs[j])}`;
    yield ']}';
  }
  yield ']}}';
}
