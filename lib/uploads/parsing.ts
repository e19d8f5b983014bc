// Parses running in this process, by document id, and the wait a message makes for them. Apart from service.ts so
// that the chat service can wait without loading the parsers.
import type { OwnerScope } from '../store/owner';
import type { ChatStore, StoredDocument } from '../store/types';

/** How long a message waits for its conversation's documents to finish parsing before it goes without them. */
export const PARSE_WAIT_MS = 120_000;

export class ParseJobs {
  private readonly jobs = new Map<string, Promise<StoredDocument>>();
  private resume?: (owner: OwnerScope, doc: StoredDocument) => void;

  /** How a parse that is not running here starts (the document service's): a record left 'parsing' by a stopped
   *  server, or by another instance sharing the database, which may still be at it (the two parses agree). */
  resumeWith(resume: (owner: OwnerScope, doc: StoredDocument) => void): void {
    this.resume = resume;
  }

  get(documentId: string): Promise<StoredDocument> | undefined {
    return this.jobs.get(documentId);
  }

  /** Keeps `job` as the document's parse until it settles. */
  track(documentId: string, job: Promise<StoredDocument>): void {
    const tracked = job.finally(() => {
      if (this.jobs.get(documentId) === tracked) this.jobs.delete(documentId);
    });
    this.jobs.set(documentId, tracked);
  }

  /**
   * Resolves when every document of the conversation still being parsed is ready or refused (or after `timeoutMs`):
   * a message sent right after an upload then carries the file instead of leaving it to the next one. A parse not
   * running in this process (the upload went to another instance) is run here too.
   */
  async settled(
    store: Pick<ChatStore, 'listDocuments'>,
    owner: OwnerScope,
    conversationId: string,
    timeoutMs = PARSE_WAIT_MS,
  ): Promise<void> {
    const parsing = (await store.listDocuments(owner, conversationId)).filter((d) => d.state === 'parsing');
    for (const d of parsing) if (!this.jobs.has(d.id)) this.resume?.(owner, d);
    const pending = parsing.flatMap((d) => this.jobs.get(d.id) ?? []);
    if (!pending.length) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled(pending),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]).finally(() => clearTimeout(timer));
  }
}
