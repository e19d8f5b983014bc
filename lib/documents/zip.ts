// Reading Office files (zip archives) without trusting them: the declared sizes are checked before anything is
// inflated, and the real output is counted while inflating, fed a small slice at a time, so a zip bomb stops at the
// cap instead of filling memory.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import { DocumentError } from './types';
import { formatBytes } from './limits';

/** Compressed bytes handed to the inflater per step: deflate expands at most ~1032×, so one step adds ≤ ~17 MB. */
const SLICE = 16 * 1024;
/** An entry that inflates past this size must not expand more than MAX_RATIO times its compressed size. */
const RATIO_FLOOR = 1024 * 1024;
const MAX_RATIO = 500;

export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  declaredSize: number;
}

/** The archive's directory (names and declared sizes), without inflating anything. */
export function zipEntries(bytes: Uint8Array, name: string): ZipEntryInfo[] {
  const entries: ZipEntryInfo[] = [];
  try {
    unzipSync(bytes, {
      filter: (f) => {
        entries.push({ name: f.name, compressedSize: f.size, declaredSize: f.originalSize });
        return false;
      },
    });
  } catch (e) {
    throw new DocumentError(`${name} is corrupt: its zip structure cannot be read (${errorText(e)}).`, 'corrupt');
  }
  return entries;
}

/**
 * Inflates every entry (counting all of them against `maxTotal`) and returns those `keep` selects. Throws a
 * 'zip-bomb' DocumentError when declared or real sizes pass the cap or an entry's ratio is absurd, 'corrupt' when
 * the data is damaged.
 */
export function readZip(
  bytes: Uint8Array,
  name: string,
  opts: { maxTotal: number; keep?: (entry: string) => boolean },
): Map<string, Uint8Array> {
  const bomb = (why: string) =>
    new DocumentError(`${name} was refused: it looks like a zip bomb (${why}).`, 'zip-bomb');
  const entries = zipEntries(bytes, name);
  const declared = entries.reduce((sum, e) => sum + e.declaredSize, 0);
  if (declared > opts.maxTotal)
    throw bomb(`its parts declare ${formatBytes(declared)} uncompressed, over the ${formatBytes(opts.maxTotal)} limit`);

  const out = new Map<string, Uint8Array>();
  let total = 0;
  let failure: DocumentError | undefined;
  const unzip = new Unzip((file) => {
    if (failure) return;
    const chunks: Uint8Array[] = [];
    const keep = opts.keep?.(file.name) ?? true;
    let size = 0;
    file.ondata = (err, chunk, final) => {
      if (failure) return;
      if (err) {
        failure = new DocumentError(
          `${name} is corrupt: part ${file.name} cannot be inflated (${err.message}).`,
          'corrupt',
        );
        return;
      }
      size += chunk.length;
      total += chunk.length;
      if (total > opts.maxTotal) {
        failure = bomb(`it inflates past the ${formatBytes(opts.maxTotal)} limit`);
      } else if (size > RATIO_FLOOR && file.size && size / file.size > MAX_RATIO) {
        failure = bomb(`part ${file.name} expands more than ${MAX_RATIO} times`);
      }
      if (failure) {
        file.terminate();
        return;
      }
      if (keep) chunks.push(chunk);
      if (final && keep) out.set(file.name, concat(chunks, size));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length && !failure; at += SLICE) {
      unzip.push(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length);
    }
  } catch (e) {
    failure ??= new DocumentError(`${name} is corrupt: ${errorText(e)}.`, 'corrupt');
  }
  if (failure) throw failure;
  return out;
}

/**
 * The bytes of the one entry `entry` of an archive readZip has already checked, inflated as they are read (by
 * zlib, natively; a large part is never held whole); undefined when the archive has no such entry.
 */
export function entryStream(bytes: Uint8Array, name: string, entry: string): AsyncIterable<Uint8Array> | undefined {
  const found = centralDirectory(bytes, name).get(entry);
  if (!found) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = found.offset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50)
    throw new DocumentError(`${name} is corrupt: part ${entry} is not where its directory says.`, 'corrupt');
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + found.compressedSize);
  if (found.method === 0) return Readable.from([data]);
  if (found.method !== 8)
    throw new DocumentError(`${name} uses a compression this reader does not know (${found.method}).`, 'corrupt');
  const inflate = createInflateRaw();
  const slices = (function* () {
    for (let i = 0; i < data.length; i += SLICE) yield data.subarray(i, i + SLICE);
  })();
  const corrupt = (e: unknown) =>
    new DocumentError(`${name} is corrupt: part ${entry} cannot be inflated (${errorText(e)}).`, 'corrupt');
  return (async function* () {
    const piping = pipeline(Readable.from(slices), inflate).catch((e: unknown) => {
      throw corrupt(e);
    });
    piping.catch(() => undefined); // awaited below
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) yield chunk;
    } catch (e) {
      throw corrupt(e);
    }
    await piping;
  })();
}

/** Each entry's compression, compressed size and local header, from the archive's central directory. */
function centralDirectory(
  bytes: Uint8Array,
  name: string,
): Map<string, { method: number; compressedSize: number; offset: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const corrupt = () => new DocumentError(`${name} is corrupt: its zip directory cannot be read.`, 'corrupt');
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw corrupt();
  let count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  // A zip64 archive keeps its real directory offset and count in the zip64 end record.
  if ((at === 0xffffffff || count === 0xffff) && end >= 20 && view.getUint32(end - 20, true) === 0x07064b50) {
    const record = Number(view.getBigUint64(end - 12, true));
    if (view.getUint32(record, true) !== 0x06064b50) throw corrupt();
    count = Number(view.getBigUint64(record + 32, true));
    at = Number(view.getBigUint64(record + 48, true));
  }
  const entries = new Map<string, { method: number; compressedSize: number; offset: number }>();
  const decoder = new TextDecoder();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw corrupt();
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    let offset = view.getUint32(at + 42, true);
    // Sizes and offset that do not fit 32 bits are in the zip64 extra field, in this order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = view.getUint16(extra, true);
      const length = view.getUint16(extra + 2, true);
      if (id === 1) {
        let field = extra + 4;
        if (size === 0xffffffff) field += 8;
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(view.getBigUint64(field, true));
          field += 8;
        }
        if (offset === 0xffffffff) offset = Number(view.getBigUint64(field, true));
      }
      extra += 4 + length;
    }
    const entry = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.set(entry, { method: view.getUint16(at + 10, true), compressedSize, offset });
    at = extraEnd + commentLength;
  }
  return entries;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
