// Bytes to a ParsedDocument: the kind is sniffed from the content, then the one parser for that kind runs.
import { createHash } from 'node:crypto';
import { documentLimits, formatBytes, type DocumentLimits } from '../limits';
import { sniffKind } from '../sniff';
import { decodeText } from '../text-decode';
import { DocumentError, type DocumentKind, type DocumentPage, type ParsedDocument } from '../types';
import { parseDelimited } from './delimited';
import { parseDocx } from './docx';
import { htmlToText } from './html';
import { parsePdf } from './pdf';
import { parsePptx } from './pptx';
import { parseSheets } from './sheet';
import { markdownTitle, parseText } from './text';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function parseDocumentBytes(
  bytes: Uint8Array,
  name: string,
  limits: DocumentLimits = documentLimits(),
): Promise<ParsedDocument> {
  if (bytes.length > limits.uploadMaxBytes) {
    throw new DocumentError(
      `${name} is ${formatBytes(bytes.length)}, over the ${formatBytes(limits.uploadMaxBytes)} limit per file.`,
      'too-large',
    );
  }
  const kind = sniffKind(bytes, name);
  let parsed: { title?: string; pages: DocumentPage[] };
  switch (kind) {
    case 'pdf':
      parsed = await parsePdf(bytes, name);
      break;
    case 'docx':
      parsed = await parseDocx(bytes, name, limits.unzippedMaxBytes);
      break;
    case 'pptx':
      parsed = parsePptx(bytes, name, limits.unzippedMaxBytes);
      break;
    case 'xlsx':
    case 'xls':
      parsed = await parseSheets(bytes, name, kind, limits.unzippedMaxBytes);
      break;
    default: {
      const { text } = decodeText(bytes);
      if (kind === 'html') {
        const html = htmlToText(text);
        parsed = { title: html.title, pages: [{ page: 1, paragraphs: html.paragraphs }] };
      } else if (kind === 'csv' || kind === 'tsv') parsed = { pages: await parseDelimited(text, kind) };
      else parsed = { title: kind === 'markdown' ? markdownTitle(text) : undefined, pages: parseText(text) };
    }
  }
  return parsedDocument(sha256(bytes), name, kind, parsed);
}

/** What a parser read, as a document; a document with no text at all is refused. */
export function parsedDocument(
  hash: string,
  name: string,
  kind: DocumentKind,
  parsed: { title?: string; pages: DocumentPage[] },
): ParsedDocument {
  if (parsed.pages.every((p) => p.paragraphs.length === 0)) {
    throw new DocumentError(`${name} has no text to read.`, 'empty');
  }
  const doc: ParsedDocument = { hash, name, kind, pages: parsed.pages };
  if (parsed.title) doc.title = parsed.title;
  return doc;
}
