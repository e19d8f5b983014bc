// The document use cases, framework-free: upload (stream to disk, record, parse in the background), list, remove,
// and which documents the next message carries. The HTTP routes only wire requests to this.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { ChatStore, StoredDocument } from '../store/types';
import { safeFileName, storedFilePath } from '../documents/file-ref';
import { formatBytes, type DocumentLimits } from '../documents/limits';
import { parsedCacheDir } from '../documents/load';
import { loadDocumentOffThread } from '../documents/parse-pool';
import { deleteStoredFile, saveUpload } from '../documents/storage';
import { ParseJobs } from './parsing';
import { DocumentError } from '../documents/types';

export interface UploadResult {
  document: StoredDocument;
  /** Set when the name had to be changed (path separators, control characters...). */
  notice?: string;
}

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** What went wrong as a code the page can say in its language (a DocumentError code, or 'gone'). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export class DocumentService {
  /** The parses in progress (the chat service waits on them before a message goes). */
  readonly parses: ParseJobs;
  private readonly dataDir: string;
  private readonly limits: DocumentLimits;

  constructor(
    readonly store: ChatStore,
    options: { dataDir: string; limits: DocumentLimits; parses?: ParseJobs },
  ) {
    this.dataDir = options.dataDir;
    this.limits = options.limits;
    this.parses = options.parses ?? new ParseJobs();
    this.parses.resumeWith((doc) => this.startParsing(doc));
  }

  /** Stores the bytes, records the document (state 'parsing') and starts parsing it. A new conversation is created
   *  when none is given, so files can be attached before the first message. */
  async upload(input: {
    conversationId?: string;
    name: string;
    body: AsyncIterable<Uint8Array>;
    declaredSize?: number;
  }): Promise<UploadResult> {
    const raw = input.name ?? '';
    const name = safeFileName(raw.split(/[/\\]/).filter(Boolean).pop() ?? raw);
    const limit = this.limits.uploadMaxBytes;
    if (input.declaredSize !== undefined && input.declaredSize > limit) {
      throw new UploadError(
        new DocumentError(`${name} is larger than the ${formatBytes(limit)} limit per file.`, 'too-large').message,
        413,
        'too-large',
      );
    }
    if (input.conversationId && !(await this.store.getConversation(input.conversationId)))
      throw new UploadError('This conversation no longer exists.', 404, 'gone');
    let saved;
    try {
      saved = await saveUpload(input.body, { dataDir: this.dataDir, maxBytes: limit, name });
    } catch (e) {
      if (e instanceof DocumentError && e.code === 'too-large') throw new UploadError(e.message, 413, e.code);
      throw e;
    }
    const conversationId = input.conversationId ?? (await this.store.createConversation()).id;
    const document = await this.store.addDocument({ conversationId, hash: saved.hash, name, size: saved.size });
    this.startParsing(document);
    const notice = name !== raw ? `The file name "${printable(raw)}" was changed to "${name}".` : undefined;
    return notice ? { document, notice } : { document };
  }

  /** The conversation's documents, oldest first. A record left 'parsing' by a stopped server is parsed again. */
  async list(conversationId: string): Promise<StoredDocument[]> {
    const docs = await this.store.listDocuments(conversationId);
    for (const doc of docs) if (doc.state === 'parsing' && !this.parses.get(doc.id)) this.startParsing(doc);
    return docs;
  }

  get(id: string): Promise<StoredDocument | undefined> {
    return this.store.getDocument(id);
  }

  /** Resolves once the document is parsed (ready or error). */
  async settled(id: string): Promise<StoredDocument | undefined> {
    await this.parses.get(id);
    return this.store.getDocument(id);
  }

  /** Removes the record; the bytes and their parse go too once no other record uses them. */
  async remove(id: string): Promise<StoredDocument> {
    await this.parses.get(id)?.catch(() => undefined);
    const removed = await this.store.removeDocument(id);
    if (!removed) throw new UploadError('This document no longer exists.', 404, 'gone');
    if ((await this.store.countDocumentsWithHash(removed.hash)) === 0)
      await deleteStoredFile(this.dataDir, removed.hash);
    return removed;
  }

  /**
   * Deletes a conversation and what it left on disk: its documents' bytes and parses (unless another conversation
   * holds the same file) and its tools' work directories (staged files, code_interpreter's files).
   */
  async deleteConversation(conversationId: string): Promise<void> {
    const docs = await this.store.listDocuments(conversationId);
    await Promise.allSettled(docs.map((d) => this.parses.get(d.id))); // a parse still writing would leave its cache
    await this.store.deleteConversation(conversationId); // its documents go with it
    for (const hash of new Set(docs.map((d) => d.hash)))
      if ((await this.store.countDocumentsWithHash(hash)) === 0) await deleteStoredFile(this.dataDir, hash);
    await rm(path.join(this.dataDir, 'work', safeFileName(conversationId)), { recursive: true, force: true });
  }

  private startParsing(doc: StoredDocument): void {
    this.parses.track(doc.id, this.parse(doc));
  }

  private async parse(doc: StoredDocument): Promise<StoredDocument> {
    try {
      const parsed = await loadDocumentOffThread(storedFilePath(this.dataDir, doc.hash), doc.name, {
        limits: this.limits,
        cacheDir: parsedCacheDir(this.dataDir),
      });
      return await this.store.updateDocument(doc.id, {
        state: 'ready',
        kind: parsed.kind,
        pages: parsed.pages.length,
        title: parsed.title,
      });
    } catch (e) {
      const error =
        e instanceof DocumentError
          ? e.message
          : `${doc.name} could not be read (${e instanceof Error ? e.message : String(e)}).`;
      const errorCode = e instanceof DocumentError ? e.code : 'unreadable';
      try {
        return await this.store.updateDocument(doc.id, { state: 'error', error, errorCode });
      } catch {
        return doc; // removed while parsing
      }
    }
  }
}

/** The raw name as a person can read it back: control and bidi characters shown as \uXXXX. */
function printable(raw: string): string {
  return raw.replace(
    /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
