// Documents: upload, storage by hash, parsing (cached by hash), and the file references messages carry.
import { getStore } from '../store';
import { DocumentService } from './service';

export { loadDocument } from './load';
export { DocumentService, UploadError, type UploadResult } from './service';
export { fileRef, parseFileRef } from './file-ref';
export { withNewDocuments } from './attach';
export { DocumentError, type ParsedDocument, type DocumentKind, type DocumentPage } from './types';

export function getDocumentService(): DocumentService {
  const g = globalThis as { __agentStudioDocuments?: DocumentService };
  return (g.__agentStudioDocuments ??= new DocumentService(getStore()));
}
