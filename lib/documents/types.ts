// What a parsed document is, for everything after parsing (chunking, search, the doc_parser tool, citations).
// Parsers (lib/documents/parse) produce it from bytes; the search pipeline consumes it.

/** One page of a document: a PDF page, a slide, a sheet; a document without pages is one page. */
export interface DocumentPage {
  /** 1-based. */
  page: number;
  /** Paragraphs in reading order; tables as GitHub markdown tables (one paragraph each). */
  paragraphs: string[];
}

export interface ParsedDocument {
  /** sha256 of the bytes, hex: the cache key of everything derived from the document. */
  hash: string;
  /** The file's display name. */
  name: string;
  /** What the bytes turned out to be (sniffed from content, not from the name). */
  kind: DocumentKind;
  title?: string;
  pages: DocumentPage[];
}

export type DocumentKind = 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'xls' | 'csv' | 'tsv' | 'html' | 'markdown' | 'text';

export const DOCUMENT_ERROR_CODES = [
  'encrypted',
  'corrupt',
  'empty',
  'unsupported',
  // A .doc or .ppt: said apart from other unreadable files, with what to save it as.
  'old-word',
  'old-powerpoint',
  'no-text',
  'too-large',
  'too-many-pixels',
  'zip-bomb',
  'not-found',
  'disk-full',
] as const;
export type DocumentErrorCode = (typeof DOCUMENT_ERROR_CODES)[number];

/** A document that cannot be read, with a message fit for the user and the model. */
export class DocumentError extends Error {
  constructor(
    message: string,
    readonly code: DocumentErrorCode,
  ) {
    super(message);
    this.name = 'DocumentError';
  }
}
