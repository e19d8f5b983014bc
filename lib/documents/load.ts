// The one entry point from a file to a ParsedDocument. The document-ingestion work (issue 4) replaces the body with
// content sniffing and the real parsers (PDF, DOCX, PPTX, XLSX/XLS, CSV/TSV, HTML, Markdown, text) and a cache by
// hash; callers keep calling loadDocument.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DocumentError, type ParsedDocument } from './types';

/** Parses a local file (already staged or uploaded). Throws DocumentError with a readable message. */
export async function loadDocument(filePath: string, name = path.basename(filePath)): Promise<ParsedDocument> {
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch {
    throw new DocumentError(`${name}: the file cannot be read.`, 'not-found');
  }
  if (bytes.length === 0) throw new DocumentError(`${name} is empty.`, 'empty');
  const text = bytes.toString('utf8');
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return {
    hash: createHash('sha256').update(bytes).digest('hex'),
    name,
    kind: /\.(md|markdown)$/i.test(name) ? 'markdown' : 'text',
    pages: [{ page: 1, paragraphs }],
  };
}
