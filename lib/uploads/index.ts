// The documents of a conversation: upload, list, remove, the parses in progress, and the files a message carries.
import { getStore } from '../store';
import { DocumentService } from './service';

export function getDocumentService(): DocumentService {
  const g = globalThis as { __agentStudioDocuments?: DocumentService };
  return (g.__agentStudioDocuments ??= new DocumentService(getStore()));
}
