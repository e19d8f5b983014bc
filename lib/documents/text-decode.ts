// Text files arrive in whatever encoding their author's editor used. Byte-order marks decide first; then strict
// UTF-8; then GB18030 (a superset of GBK and GB2312) when the non-ASCII bytes come in the high-byte pairs Chinese text
// is made of; anything else is read as Windows-1252 (Latin-1), which never fails.

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252';

export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  const utf8 = tryDecode('utf-8', bytes);
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' };
  if (looksLikeGb(bytes)) {
    const gb = tryDecode('gb18030', bytes);
    if (gb !== undefined) return { text: gb, encoding: 'gb18030' };
  }
  return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
}

function tryDecode(encoding: string, bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Chinese in GBK is pairs of bytes ≥ 0x81 then ≥ 0x40, mostly both ≥ 0xA1; accented Latin-1 letters stand alone
 *  between ASCII ones. Nine pairs in ten of the high kind says GBK. */
function looksLikeGb(bytes: Uint8Array): boolean {
  let pairs = 0;
  let highPairs = 0;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const next = bytes[i + 1];
    if (next === undefined) break;
    pairs++;
    if (next >= 0x80 || (next >= 0x30 && next <= 0x39)) highPairs++;
    i += next >= 0x30 && next <= 0x39 ? 4 : 2;
  }
  return pairs > 0 && highPairs / pairs >= 0.9;
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
