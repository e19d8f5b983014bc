// Document parsing off the main thread: a bounded pool of worker threads (DOCUMENT_PARSE_WORKERS) each running
// loadDocument, one document at a time; the rest wait in order. A worker that fails or takes too long is replaced,
// and only its document fails (with a readable error). The same workers read web pages (web-page.ts), whose
// worst case is far worse than a document's: under a time limit of their own, past which the page's plain text is
// taken in one pass instead (page-text.ts).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { defaultConfig } from '../config';
import { packagedParseWorker } from '../config/core-files';
import { processWide } from '../config/process-wide';
import type { DocumentLimits } from './limits';
import { plainPageText } from './page-text';
import { DocumentError, type ParsedDocument } from './types';
import type { PageText } from './web-page';

export interface ParseTask {
  id: number;
  filePath: string;
  name: string;
  limits?: DocumentLimits;
  cacheDir?: string | false;
  /** Answer what the document is (kind, title, page count), not its text: a large one is not copied to the main
   *  thread only to be dropped there. */
  summary?: boolean;
}

/** What a parse says of a document without its text. */
export type DocumentSummary = Omit<ParsedDocument, 'pages'> & { pages: number };

/** A web page's HTML, to be read as Readability reads it. */
export interface PageTask {
  id: number;
  page: string;
}

export type ParseReply =
  | { id: number; ok: true; doc: ParsedDocument | DocumentSummary }
  | { id: number; ok: true; page: PageText }
  | { id: number; ok: false; message: string; code?: DocumentError['code'] };

/** A parse taking longer than this is given up (its worker is stopped). */
const PARSE_TIMEOUT_MS = 5 * 60_000;
/** A web page Readability has not read in this long is given up (a real page takes well under a second). */
export const PAGE_TIMEOUT_MS = 10_000;
/** A worker left idle this long is stopped (each holds its own heap and pdf.js). */
const IDLE_MS = 30_000;

interface Job {
  task: ParseTask | PageTask;
  /** What a failure names ("report.pdf", "The page"). */
  what: string;
  timeoutMs?: number;
  resolve: (value: ParsedDocument | DocumentSummary | PageText) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
}

// No resourceLimits: on Node 20 a worker that reaches its own heap limit can abort the whole process (FATAL
// ERROR: Reached heap limit) instead of ending alone; the upload and zip-bomb limits bound what a parse may hold.
function startWorker(): Worker {
  const packaged = packagedParseWorker();
  if (packaged) return new Worker(packaged);
  if (import.meta.url.endsWith('.ts')) {
    // Paths built by hand (and hidden from Turbopack): a `new URL(…, import.meta.url)` here would make the bundler
    // ship the worker as a plain file instead of bundling it below.
    const here = path.dirname(fileURLToPath(import.meta.url));
    return new Worker(path.join(/*turbopackIgnore: true*/ here, 'parse-worker-source.mjs'), {
      workerData: { entry: pathToFileURL(path.join(/*turbopackIgnore: true*/ here, 'parse-worker.ts')).href },
    });
  }
  // The built app: Turbopack bundles the worker from this exact form.
  return new Worker(new URL('./parse-worker.ts', import.meta.url));
}

export class ParsePool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 0;

  constructor(
    readonly size: number,
    private readonly opts: { timeoutMs?: number } = {},
  ) {}

  parse(
    filePath: string,
    name: string,
    opts?: { limits?: DocumentLimits; cacheDir?: string | false },
  ): Promise<ParsedDocument>;
  parse(
    filePath: string,
    name: string,
    opts: { limits?: DocumentLimits; cacheDir?: string | false; summary: true },
  ): Promise<DocumentSummary>;
  parse(
    filePath: string,
    name: string,
    opts: { limits?: DocumentLimits; cacheDir?: string | false; summary?: boolean } = {},
  ): Promise<ParsedDocument | DocumentSummary> {
    return new Promise<ParsedDocument | DocumentSummary>((resolve, reject) => {
      this.queue.push({
        task: { id: this.nextId++, filePath, name, ...opts },
        what: name,
        resolve: resolve as Job['resolve'],
        reject,
      });
      this.pump();
    });
  }

  /** A web page's readable text (Readability), given up after `timeoutMs` (its worker is stopped). */
  readablePage(html: string, timeoutMs = PAGE_TIMEOUT_MS): Promise<PageText> {
    return new Promise<PageText>((resolve, reject) => {
      this.queue.push({
        task: { id: this.nextId++, page: html },
        what: 'The page',
        timeoutMs,
        resolve: resolve as Job['resolve'],
        reject,
      });
      this.pump();
    });
  }

  /** Workers alive now (for tests and measurements). */
  get workers(): number {
    return this.slots.size;
  }

  /** Stops every worker; queued and running parses fail. */
  async close(): Promise<void> {
    for (const job of this.queue.splice(0)) job.reject(new DocumentError('Parsing was stopped.', 'corrupt'));
    await Promise.all([...this.slots].map((s) => this.retire(s, new DocumentError('Parsing was stopped.', 'corrupt'))));
  }

  private pump(): void {
    while (this.queue.length) {
      let slot = [...this.slots].find((s) => !s.job);
      if (!slot) {
        if (this.slots.size >= this.size) return;
        slot = this.spawn();
      }
      this.assign(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker() };
    slot.worker.unref(); // a CLI or a test ends without waiting for idle workers
    slot.worker.on('message', (reply: ParseReply) => this.finish(slot, reply));
    slot.worker.on('error', (err: Error) => {
      const name = slot.job?.what ?? 'The document';
      void this.retire(
        slot,
        new DocumentError(`${name} could not be read (the parser stopped: ${err.message}).`, 'corrupt'),
      );
    });
    slot.worker.on('exit', (code) => {
      if (this.slots.has(slot))
        void this.retire(
          slot,
          new DocumentError(
            `${slot.job?.what ?? 'The document'} could not be read (the parser exited with ${code}).`,
            'corrupt',
          ),
        );
    });
    this.slots.add(slot);
    return slot;
  }

  private assign(slot: Slot, job: Job): void {
    clearTimeout(slot.idle);
    slot.job = job;
    const timeoutMs = job.timeoutMs ?? this.opts.timeoutMs ?? PARSE_TIMEOUT_MS;
    slot.timer = setTimeout(
      () =>
        void this.retire(
          slot,
          new DocumentError(`${job.what} took longer than ${Math.round(timeoutMs / 1000)} s to parse.`, 'corrupt'),
        ),
      timeoutMs,
    );
    slot.timer.unref();
    slot.worker.postMessage(job.task);
  }

  private finish(slot: Slot, reply: ParseReply): void {
    const job = slot.job;
    if (!job || job.task.id !== reply.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (reply.ok) job.resolve('page' in reply ? reply.page : reply.doc);
    else job.reject(reply.code ? new DocumentError(reply.message, reply.code) : new Error(reply.message));
    slot.idle = setTimeout(() => void this.retire(slot), IDLE_MS);
    slot.idle.unref();
    this.pump();
  }

  /** Stops a worker; its parse (if any) fails with `error`. The queue moves on to a fresh worker. */
  private async retire(slot: Slot, error?: Error): Promise<void> {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.timer);
    clearTimeout(slot.idle);
    const job = slot.job;
    slot.job = undefined;
    if (job) job.reject(error ?? new DocumentError(`${job.what} could not be read.`, 'corrupt'));
    await slot.worker.terminate().catch(() => undefined);
    this.pump();
  }
}

const POOL = 'parse-pool';

/** Makes the process's pool with DOCUMENT_PARSE_WORKERS workers: the composition root does, at start. A pool already
 *  made stays (it outlives a module reload in Next dev: workers must not leak). */
export function startParsePool(workers: number): ParsePool {
  return processWide(POOL, () => new ParsePool(workers));
}

/** The process's pool; made with the default size for whoever parses first in a process whose root made none (the
 *  core from plain Node). */
export function parsePool(): ParsePool {
  return startParsePool(defaultConfig().documentParseWorkers);
}

/** loadDocument (read, sniff, parse, cache), run in a worker thread of the pool. */
export function loadDocumentOffThread(
  filePath: string,
  name = path.basename(filePath),
  opts: { limits?: DocumentLimits; cacheDir?: string | false } = {},
): Promise<ParsedDocument> {
  return parsePool().parse(filePath, name, opts);
}

/** loadDocumentOffThread for a caller that wants to know only what the document is (the upload: parsed once into
 *  the cache, its kind and pages recorded). */
export function parseDocumentOffThread(
  filePath: string,
  name = path.basename(filePath),
  opts: { limits?: DocumentLimits; cacheDir?: string | false } = {},
): Promise<DocumentSummary> {
  return parsePool().parse(filePath, name, { ...opts, summary: true });
}

/**
 * A web page's readable text, read in a worker of the pool (Readability, web-page.ts); when that fails or takes longer
 * than `timeoutMs`, its plain text, taken in one pass on this thread (page-text.ts).
 */
export async function readablePageOffThread(html: string, timeoutMs = PAGE_TIMEOUT_MS): Promise<PageText> {
  try {
    const page = await parsePool().readablePage(html, timeoutMs);
    if (page.text) return page;
  } catch {
    // too slow or failed: the plain text below
  }
  return plainPageText(html);
}

/** The summary of a parsed document. */
export function summaryOf(doc: ParsedDocument): DocumentSummary {
  const { pages, ...rest } = doc;
  return { ...rest, pages: pages.length };
}
