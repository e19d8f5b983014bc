// Reading Office files (zip archives) without trusting them: the declared sizes are checked before anything is
// inflated, and the real output is counted while inflating, fed a small slice at a time, so a zip bomb stops at the
// cap instead of filling memory.
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
