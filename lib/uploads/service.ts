// The document use cases, framework-free: upload (stream to disk, record, parse in the background), list, remove,
// and which documents the next message carries. The HTTP routes only wire requests to this. Every use case takes the
// owner's scope: a document is its conversation's owner's, and another owner's reads as unknown (404). The bytes are
// kept once per content hash whoever uploads them, and deleted once no record of anyone holds them.
import { readFile } from 'node:fs/promises';
import { RateLimitError, type ByteBudget } from '../http/rate-limit';
import type { OwnerScope } from '../store/owner';
import type { AgentDocument, ChatStore, SavedAgent, StoredDocument } from '../store/types';
import { safeFileName, storedFilePath } from '../documents/file-ref';
import { formatBytes, type DocumentLimits } from '../documents/limits';
import { parsedCacheDir } from '../documents/load';
import { loadDocumentOffThread, parseDocumentOffThread } from '../documents/parse-pool';
import { deleteStoredFile, diskFull, keepParse, readHead, saveUpload, uploadedFile } from '../documents/storage';
import { removeWorkFiles } from '../../tools/work-files';
import { ParseJobs } from './parsing';
import { DocumentError } from '../documents/types';
import { checkImage, type ImageLimits } from '../documents/image';
import { sniffImage } from '../documents/image-kind';
import { isErrorNamed } from '../protocol/errors';
import { numberedFileName } from '../llm/attachment-name';

export interface UploadResult {
  document: StoredDocument;
  /** Set when the name had to be changed (path separators, control characters...; or another file of the
   *  conversation has it). */
  notice?: string;
  /** What changed the name, for the page to say in its language: 'renamed' (cleaned) or 'duplicate-name'. */
  noticeCode?: 'renamed' | 'duplicate-name';
}

/** One page of a document the owner holds, as the citation viewer shows it. */
export interface DocumentPageView {
  /** 1-based, within 1..pageCount. */
  page: number;
  pageCount: number;
  /** Paragraphs in reading order (tables as markdown tables). */
  paragraphs: string[];
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
  private readonly imageLimits: ImageLimits;
  private readonly budget?: ByteBudget;
  /** The last upload being recorded in each conversation (see oneAtATime). */
  private readonly naming = new Map<string, Promise<void>>();

  constructor(
    readonly store: ChatStore,
    /** `budget`: bytes each owner may upload a day (UPLOAD_BYTES_PER_DAY); past it an upload is refused (429). */
    options: { dataDir: string; limits: DocumentLimits; images: ImageLimits; parses?: ParseJobs; budget?: ByteBudget },
  ) {
    this.dataDir = options.dataDir;
    this.limits = options.limits;
    this.imageLimits = options.images;
    this.parses = options.parses ?? new ParseJobs();
    this.budget = options.budget;
    this.parses.resumeWith((owner, doc) => this.startParsing(owner, doc));
  }

  /** Stores the bytes, records the document (state 'parsing') and starts parsing it. A new conversation is created
   *  when none is given, so files can be attached before the first message. */
  async upload(
    owner: OwnerScope,
    input: {
      conversationId?: string;
      name: string;
      body: AsyncIterable<Uint8Array>;
      declaredSize?: number;
    },
  ): Promise<UploadResult> {
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
    if (input.conversationId && !(await this.store.getConversation(owner, input.conversationId)))
      throw new UploadError('This conversation no longer exists.', 404, 'gone');
    const saved = await this.saveBytes(owner, name, input.body, input.declaredSize);
    let created: string | undefined;
    let document: StoredDocument;
    let given = name;
    try {
      const conversationId = input.conversationId ?? (created = (await this.store.createConversation(owner)).id);
      // One at a time per conversation: two files of one name dropped together must not both take it.
      document = await this.oneAtATime(conversationId, async () => {
        given = await this.freeName(owner, conversationId, name, saved.hash);
        return this.store.addDocument(owner, { conversationId, hash: saved.hash, name: given, size: saved.size });
      });
    } catch (e) {
      // The database refused (its disk is full too): nothing of this upload stays behind.
      if (created) await this.store.deleteConversation(owner, created).catch(() => undefined);
      await this.release([saved.hash]).catch(() => undefined);
      throw storageFull(e, name) ?? e;
    }
    this.startParsing(owner, document);
    if (given !== name)
      return {
        document,
        notice: `This conversation already has a file named "${name}": this one is "${given}".`,
        noticeCode: 'duplicate-name',
      };
    const notice = name !== raw ? `The file name "${printable(raw)}" was changed to "${name}".` : undefined;
    return notice ? { document, notice, noticeCode: 'renamed' } : { document };
  }

  /** `task` after the conversation's previous one (on this instance) has finished. */
  private oneAtATime<T>(conversationId: string, task: () => Promise<T>): Promise<T> {
    const run = (this.naming.get(conversationId) ?? Promise.resolve()).then(task, task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.naming.set(conversationId, settled);
    void settled.then(() => this.naming.get(conversationId) === settled && this.naming.delete(conversationId));
    return run;
  }

  /** `name`, or when another file of the conversation has it, the name numbered ("notes (2).txt"): the model, the
   *  tools and the Sources tell two files apart only by name. The same bytes under the same name are that file. */
  private async freeName(owner: OwnerScope, conversationId: string, name: string, hash: string): Promise<string> {
    const docs = await this.store.listDocuments(owner, conversationId);
    if (!docs.some((d) => d.name === name && d.hash !== hash)) return name;
    const taken = new Set(docs.map((d) => d.name));
    return numberedFileName(name, (candidate) => taken.has(candidate));
  }

  /**
   * A document a saved agent always has (its knowledge): the bytes stored as any upload's, checked by content (a
   * document it can read; an image is no document), and added to the owner's agent `agentId`. The agent must be the
   * owner's (another user's reads as unknown, 404). Refused bytes are not kept unless someone else holds them.
   */
  async uploadToAgent(
    owner: OwnerScope,
    input: { agentId: string; name: string; body: AsyncIterable<Uint8Array>; declaredSize?: number },
  ): Promise<{ document: AgentDocument; agent: SavedAgent }> {
    const name = safeFileName(input.name.split(/[/\\]/).filter(Boolean).pop() ?? input.name);
    if (!(await this.store.getAgent(owner, input.agentId)))
      throw new UploadError('This agent no longer exists.', 404, 'gone');
    const limit = this.limits.uploadMaxBytes;
    if (input.declaredSize !== undefined && input.declaredSize > limit)
      throw new UploadError(`${name} is larger than the ${formatBytes(limit)} limit per file.`, 413, 'too-large');
    const saved = await this.saveBytes(owner, name, input.body, input.declaredSize);
    const file = storedFilePath(this.dataDir, saved.hash);
    try {
      if (sniffImage(await readHead(file)))
        throw new DocumentError(`${name} is an image, not a document an agent can search.`, 'unsupported');
      await parseDocumentOffThread(file, name, { limits: this.limits, cacheDir: parsedCacheDir(this.dataDir) });
    } catch (e) {
      await this.release([saved.hash]);
      if (isErrorNamed<DocumentError>(e, 'DocumentError')) throw new UploadError(e.message, 422, e.code);
      throw e;
    }
    const document: AgentDocument = { hash: saved.hash, name, size: saved.size };
    const agent = (await this.store.getAgent(owner, input.agentId))!;
    const { id, createdAt: _c, updatedAt: _u, ...definition } = agent;
    const others = (definition.documents ?? []).filter((d) => d.hash !== document.hash);
    // Two of the agent's documents of one name would be one file to its tools: the later is numbered.
    if (others.some((d) => d.name === name))
      document.name = numberedFileName(name, (candidate) => others.some((d) => d.name === candidate));
    return {
      document,
      agent: await this.store.updateAgent(owner, id, { ...definition, documents: [...others, document] }),
    };
  }

  /** Streams the bytes to disk within the per-file limit and the owner's daily budget (UPLOAD_BYTES_PER_DAY). */
  private async saveBytes(owner: OwnerScope, name: string, body: AsyncIterable<Uint8Array>, declaredSize?: number) {
    const allowance = this.budget?.left(owner.ownerId);
    const overBudget = () => {
      const [limit, hours] = [formatBytes(this.budget!.maxBytes), Math.ceil(allowance!.retryAfterS / 3600)];
      return new RateLimitError(
        'upload-budget',
        `You have uploaded ${limit} in the last 24 hours, the most one user may (UPLOAD_BYTES_PER_DAY). ` +
          `Try again in ${hours} h.`,
        allowance!.retryAfterS || 60,
        { limit, hours },
      );
    };
    if (allowance && (allowance.bytes <= 0 || (declaredSize ?? 0) > allowance.bytes)) throw overBudget();
    let saved;
    try {
      const limited = allowance ? capped(body, allowance.bytes, overBudget) : body;
      saved = await saveUpload(limited, { dataDir: this.dataDir, maxBytes: this.limits.uploadMaxBytes, name });
    } catch (e) {
      if (isErrorNamed<DocumentError>(e, 'DocumentError') && e.code === 'too-large')
        throw new UploadError(e.message, 413, e.code);
      throw storageFull(e, name) ?? e;
    }
    this.budget?.spend(owner.ownerId, saved.size);
    return saved;
  }

  /** Deletes the bytes (and their parse) of each hash nobody holds any more (after an agent let go of its files). */
  async release(hashes: Iterable<string>): Promise<void> {
    for (const hash of new Set(hashes))
      if ((await this.store.countDocumentsWithHash(hash)) === 0) await this.forget(hash);
  }

  /** Bytes nobody holds: the file, its parse and its chunk vectors go. */
  private async forget(hash: string): Promise<void> {
    await deleteStoredFile(this.dataDir, hash);
    await this.store.deleteChunkVectors(hash);
  }

  /** The conversation's documents, oldest first. A record left 'parsing' by a stopped server is parsed again. */
  async list(owner: OwnerScope, conversationId: string): Promise<StoredDocument[]> {
    if (!(await this.store.getConversation(owner, conversationId)))
      throw new UploadError('This conversation no longer exists.', 404);
    const docs = await this.store.listDocuments(owner, conversationId);
    for (const doc of docs) if (doc.state === 'parsing' && !this.parses.get(doc.id)) this.startParsing(owner, doc);
    return docs;
  }

  get(owner: OwnerScope, id: string): Promise<StoredDocument | undefined> {
    return this.store.getDocument(owner, id);
  }

  /** A page of a document by its content hash (a citation names it so): one the owner uploaded to a conversation or
   *  holds in a saved agent; anyone else's, or bytes never uploaded, read as unknown (404). The parse is the cached
   *  one. */
  async page(owner: OwnerScope, hash: string, page: number): Promise<DocumentPageView> {
    const gone = () => new UploadError('This document is not here any more.', 404, 'gone');
    if (!/^[0-9a-f]{64}$/.test(hash) || !(await this.store.ownsUpload(owner, hash))) throw gone();
    const file = await uploadedFile(this.dataDir, hash);
    if (!file || sniffImage(await readHead(file))) throw gone();
    // A document that cannot be read is said as an upload of it is (422); anything else is a fault.
    const parsed = await loadDocumentOffThread(file, 'document', {
      limits: this.limits,
      cacheDir: parsedCacheDir(this.dataDir),
    }).catch((e: unknown) => {
      throw isErrorNamed<DocumentError>(e, 'DocumentError') ? new UploadError(e.message, 422, e.code) : e;
    });
    const pageCount = parsed.pages.length;
    const n = Number.isInteger(page) ? Math.min(Math.max(page, 1), Math.max(pageCount, 1)) : 1;
    const found = parsed.pages.find((p) => p.page === n) ?? parsed.pages[n - 1];
    return { page: n, pageCount, paragraphs: found?.paragraphs ?? [] };
  }

  /** Resolves once the document is parsed (ready or error). */
  async settled(owner: OwnerScope, id: string): Promise<StoredDocument | undefined> {
    if (await this.store.getDocument(owner, id)) await this.parses.get(id);
    return this.store.getDocument(owner, id);
  }

  /** Removes the record; the bytes and their parse go too once no other record (of anyone) uses them. */
  async remove(owner: OwnerScope, id: string): Promise<StoredDocument> {
    if (!(await this.store.getDocument(owner, id))) throw new UploadError('This document no longer exists.', 404);
    await this.parses.get(id)?.catch(() => undefined);
    const removed = await this.store.removeDocument(owner, id);
    if (!removed) throw new UploadError('This document no longer exists.', 404, 'gone');
    if ((await this.store.countDocumentsWithHash(removed.hash)) === 0) await this.forget(removed.hash);
    return removed;
  }

  /**
   * Deletes a conversation and what it left on disk: its documents' bytes and parses (unless another conversation
   * holds the same file) and its tools' work directories (staged files, code_interpreter's files).
   */
  async deleteConversation(owner: OwnerScope, conversationId: string): Promise<void> {
    const docs = await this.store.listDocuments(owner, conversationId);
    await Promise.allSettled(docs.map((d) => this.parses.get(d.id))); // a parse still writing would leave its cache
    await this.store.deleteConversation(owner, conversationId); // its documents go with it; throws if not the owner's
    for (const hash of new Set(docs.map((d) => d.hash)))
      if ((await this.store.countDocumentsWithHash(hash)) === 0) await this.forget(hash);
    await removeWorkFiles(this.dataDir, conversationId);
  }

  private startParsing(owner: OwnerScope, doc: StoredDocument): void {
    this.parses.track(doc.id, this.parse(owner, doc));
  }

  private async parse(owner: OwnerScope, doc: StoredDocument): Promise<StoredDocument> {
    try {
      const file = await uploadedFile(this.dataDir, doc.hash);
      if (!file) throw new DocumentError(`${doc.name}: the uploaded bytes are gone.`, 'not-found');
      // An image is not parsed but checked (format, size, pixels, that it decodes); messages carry it as an image.
      if (sniffImage(await readHead(file))) {
        const image = await checkImage(await readFile(file), doc.name, this.imageLimits);
        return await this.store.updateDocument(owner, doc.id, { state: 'ready', kind: image.kind, pages: 1 });
      }
      const parsed = await parseDocumentOffThread(file, doc.name, {
        limits: this.limits,
        cacheDir: parsedCacheDir(this.dataDir),
      });
      await keepParse(this.dataDir, doc.hash).catch(() => undefined); // unshared, it costs another instance a re-parse
      return await this.store.updateDocument(owner, doc.id, {
        state: 'ready',
        kind: parsed.kind,
        pages: parsed.pages,
        title: parsed.title,
      });
    } catch (e) {
      const error = isErrorNamed<DocumentError>(e, 'DocumentError')
        ? e.message
        : `${doc.name} could not be read (${e instanceof Error ? e.message : String(e)}).`;
      const errorCode = isErrorNamed<DocumentError>(e, 'DocumentError') ? e.code : 'unreadable';
      try {
        return await this.store.updateDocument(owner, doc.id, { state: 'error', error, errorCode });
      } catch {
        return doc; // removed while parsing
      }
    }
  }
}

/** A disk that is full (the files', or the database's: SQLite's SQLITE_FULL, PostgreSQL's disk_full) as a 507 that
 *  says so, which the page shows; a database locked by another program for longer than the store waits as a 503 that
 *  says so; undefined for any other failure. */
function storageFull(e: unknown, name: string): UploadError | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (isErrorNamed(e, 'StoreBusyError'))
    return new UploadError(`${name} could not be stored: ${e.message} Nothing was kept; try again.`, 503, 'store-busy');
  const full =
    (isErrorNamed<DocumentError>(e, 'DocumentError') && e.code === 'disk-full' && e) ||
    ((code === 'SQLITE_FULL' || code === '53100') && diskFull({ code: 'ENOSPC' }, name));
  return full ? new UploadError(full.message, 507, full.code) : undefined;
}

/** The body's chunks; `makeError()` is thrown once more than `maxBytes` came. */
async function* capped(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
  makeError: () => Error,
): AsyncIterable<Uint8Array> {
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw makeError();
    yield chunk;
  }
}

/** The raw name as a person can read it back: control and bidi characters shown as \uXXXX. */
function printable(raw: string): string {
  return raw.replace(
    /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
