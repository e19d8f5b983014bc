// Text files arrive in whatever encoding their author's editor used. Byte-order marks decide first; then strict
// UTF-8; then GB18030 (a superset of GBK and GB2312) when the non-ASCII bytes come in the high-byte pairs Chinese text
// is made of; anything else is read as Windows-1252 (Latin-1), which never fails.

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252';

export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  const bom = bomOf(bytes);
  if (bom) return { text: new TextDecoder(bom.encoding).decode(bytes.subarray(bom.length)), encoding: bom.encoding };
  const utf8 = tryDecode('utf-8', bytes);
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' };
  const gb = new GbPairs();
  gb.push(bytes);
  if (gb.looksGb) {
    const text = tryDecode('gb18030', bytes);
    if (text !== undefined) return { text, encoding: 'gb18030' };
  }
  return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
}

function bomOf(bytes: Uint8Array): { encoding: TextEncodingName; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

function tryDecode(encoding: string, bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * decodeText's choice for a file read in pieces (a large CSV is never held whole): push every piece, then
 * `encoding` says how to decode it and `skip` how many bytes of byte-order mark go first. GB18030 is chosen as
 * decodeText chooses it, but its strictness is only known while decoding: decode it with `fatal`, and if that
 * throws, decode the file again as `fallback`.
 */
export class EncodingSniffer {
  private head: Uint8Array = new Uint8Array(0);
  private utf8?: TextDecoder = new TextDecoder('utf-8', { fatal: true });
  private readonly gb = new GbPairs();

  push(piece: Uint8Array): void {
    if (this.head.length < 3) this.head = concat(this.head, piece.subarray(0, 3 - this.head.length));
    if (this.utf8) {
      try {
        this.utf8.decode(piece, { stream: true });
      } catch {
        this.utf8 = undefined;
      }
    }
    this.gb.push(piece);
  }

  result(): { encoding: TextEncodingName; skip: number; fallback?: TextEncodingName } {
    const bom = bomOf(this.head);
    if (bom) return { encoding: bom.encoding, skip: bom.length };
    if (this.utf8) {
      try {
        this.utf8.decode(); // a sequence cut short at the end is not UTF-8
        return { encoding: 'utf-8', skip: 0 };
      } catch {
        this.utf8 = undefined;
      }
    }
    if (this.gb.looksGb) return { encoding: 'gb18030', skip: 0, fallback: 'windows-1252' };
    return { encoding: 'windows-1252', skip: 0 };
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Chinese in GBK is pairs of bytes ≥ 0x81 then ≥ 0x40, mostly both ≥ 0xA1; accented Latin-1 letters stand alone
 *  between ASCII ones. Nine pairs in ten of the high kind says GBK. Bytes may come in pieces. */
class GbPairs {
  private pairs = 0;
  private highPairs = 0;
  /** Bytes of the last piece's final sequence that fall in the next piece. */
  private skip = 0;
  /** A high byte that ended the last piece: its pair's second byte opens the next. */
  private lead = false;

  push(bytes: Uint8Array): void {
    let i = this.skip;
    if (this.lead && bytes.length) {
      this.lead = false;
      i = this.pair(bytes[0]!) - 1;
    }
    for (; i < bytes.length;) {
      if (bytes[i]! < 0x80) {
        i++;
        continue;
      }
      const next = bytes[i + 1];
      if (next === undefined) {
        this.lead = true;
        i++;
        break;
      }
      i += this.pair(next);
    }
    this.skip = Math.max(0, i - bytes.length);
  }

  /** Counts a pair by its second byte; returns how many bytes its sequence takes. */
  private pair(next: number): number {
    this.pairs++;
    if (next >= 0x80 || (next >= 0x30 && next <= 0x39)) this.highPairs++;
    return next >= 0x30 && next <= 0x39 ? 4 : 2;
  }

  get looksGb(): boolean {
    return this.pairs > 0 && this.highPairs / this.pairs >= 0.9;
  }
}

/** Binary content read as text shows NULs and other control characters that text files do not contain. */
export function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 8192);
  let control = 0;
  for (const b of sample) {
    if (b === 0) return true;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) control++;
  }
  return control > sample.length * 0.05;
}
