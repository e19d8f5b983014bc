// What a file is, decided from its bytes. The name only breaks ties between text kinds (is this text a CSV?): it can
// never make bytes of one format be read by another format's parser.
import { acceptedTypesText } from './accepted-types';
import { decodeText, looksBinary } from './text-decode';
import { zipEntries } from './zip';
import { DocumentError, type DocumentKind } from './types';
import { looksDelimited } from './parse/delimited';

const MAGIC: { bytes: number[]; what: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21], what: 'a RAR archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf], what: 'a 7-Zip archive' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'a program (ELF)' },
  { bytes: [0x4d, 0x5a], what: 'a Windows program' },
  { bytes: [0x7b, 0x5c, 0x72, 0x74, 0x66], what: 'an RTF document' },
];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const SUPPORTED = acceptedTypesText();

function startsWith(bytes: Uint8Array, magic: number[], at = 0): boolean {
  return magic.every((b, i) => bytes[at + i] === b);
}

function containsUtf16(bytes: Uint8Array, word: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(word, 'utf16le'));
}

export function unsupported(name: string, what: string): DocumentError {
  return new DocumentError(`${name} is ${what}, which cannot be read. Supported: ${SUPPORTED}.`, 'unsupported');
}

/** Whether the first 64 KB of a file decide its kind as its whole bytes would: all but zip archives (whose directory
 *  is at the end) and OLE files (whose streams are anywhere). */
export function headDecidesKind(head: Uint8Array): boolean {
  return !startsWith(head, [0x50, 0x4b]) && !startsWith(head, OLE);
}

export function sniffKind(bytes: Uint8Array, name: string): DocumentKind {
  if (bytes.length === 0) throw new DocumentError(`${name} is empty (0 bytes).`, 'empty');
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    const names = new Set(zipEntries(bytes, name).map((e) => e.name));
    if (names.has('word/document.xml')) return 'docx';
    if (names.has('ppt/presentation.xml')) return 'pptx';
    if (names.has('xl/workbook.xml') || names.has('xl/workbook.bin')) return 'xlsx';
    throw unsupported(name, 'a zip archive that is not a Word, PowerPoint or Excel document');
  }
  if (startsWith(bytes, OLE)) {
    if (containsUtf16(bytes, 'EncryptedPackage'))
      throw new DocumentError(
        `${name} is a password-protected Office document; remove the password and upload it again.`,
        'encrypted',
      );
    if (containsUtf16(bytes, 'Workbook') || containsUtf16(bytes, 'Book')) return 'xls';
    if (containsUtf16(bytes, 'WordDocument'))
      throw new DocumentError(
        `${name} is an old Word document (.doc), which cannot be read: save it as .docx and upload that.`,
        'old-word',
      );
    if (containsUtf16(bytes, 'PowerPoint Document'))
      throw new DocumentError(
        `${name} is an old PowerPoint file (.ppt), which cannot be read: save it as .pptx and upload that.`,
        'old-powerpoint',
      );
    throw unsupported(name, 'an old Microsoft Office file');
  }
  for (const m of MAGIC) if (startsWith(bytes, m.bytes)) throw unsupported(name, m.what);
  if (looksBinary(bytes) && !hasUtf16Bom(bytes)) throw unsupported(name, 'a binary file of an unknown type');
  return textKind(decodeText(bytes.subarray(0, 64 * 1024)).text, name);
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** Text kinds: HTML by its markup, CSV/TSV by a consistent column count, Markdown by its marks. */
export function textKind(text: string, name: string): DocumentKind {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 512)
    .toLowerCase();
  if (/^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/.test(start)) return 'html';
  if ((ext === 'html' || ext === 'htm') && /<[a-z][^>]*>/i.test(text)) return 'html';
  const minRows = ext === 'csv' || ext === 'tsv' ? 2 : 3;
  if (looksDelimited(text, '\t', minRows)) return 'tsv';
  if (looksDelimited(text, ',', minRows) || (ext === 'csv' && looksDelimited(text, ';', minRows))) return 'csv';
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (/^(#{1,6} |```|[-*] |\d+\. )/m.test(text) && /^#{1,6} /m.test(text)) return 'markdown';
  return 'text';
}
