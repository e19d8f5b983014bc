// The one list of what an upload may be, named as a person reads it: the documents the parsers read (README
// "Documents") and the images a message carries (lib/documents/image-kind.ts). The server's "unsupported" message and
// the page's (the catalogs' documents.errors.unsupported, given these names) both come from here. Pure: the page
// imports it too.
import { IMAGE_KINDS, IMAGE_LABELS } from './image-kind';

/** Document formats by name; plain text is said in words by each message. */
export const DOCUMENT_TYPE_NAMES = [
  'PDF',
  'Word (.docx)',
  'PowerPoint (.pptx)',
  'Excel (.xlsx, .xls)',
  'CSV',
  'TSV',
  'HTML',
  'Markdown',
] as const;

export const IMAGE_TYPE_NAMES = IMAGE_KINDS.map((kind) => IMAGE_LABELS[kind]);

/** "A, B or C" */
export function orList(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** What the server's message says is accepted. */
export function acceptedTypesText(): string {
  return `${DOCUMENT_TYPE_NAMES.join(', ')} or plain text documents, and ${orList(IMAGE_TYPE_NAMES)} images`;
}
