// Settings → Models → Local: the GGUF files under DATA_DIR/models, the downloads going on (one job per file name,
// outliving the page that started it: a reload follows it again), and uploads of a file from the browser. Every file
// that comes in is checked by its GGUF header before it is kept; a bad one is refused with the reason and removed.
import { mkdir, open as openFile, rename, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '../config';
import {
  catalogModel,
  downloadModel,
  downloadPolicy,
  DownloadError,
  GgufFormatError,
  LOCAL_MODEL_CATALOG,
  listLocalModels,
  modelFileName,
  readGgufHeader,
  type CatalogModel,
  type DownloadProblem,
  type DownloadProgress,
  type LocalModelFile,
  type PartialDownload,
} from '../llm/local';
import { describeStart } from '../llm/local/gguf-header';
import { summarize } from '../llm/local/models-dir';
import { formatBytes } from '../documents/limits';
import { isErrorNamed } from '../protocol/errors';

export interface DownloadJob {
  /** The file name it is saved as (what the page follows it by). */
  name: string;
  url: string;
  state: 'running' | 'done' | 'failed' | 'stopped';
  progress?: DownloadProgress;
  error?: { problem: DownloadProblem; message: string };
  /** The host to allow for this one download, when the refusal was that it is on a private network. */
  blockedHost?: string;
}

export interface LocalModelsView {
  /** Where the files are (shown, so that a file can be copied there by hand). */
  dir: string;
  models: LocalModelFile[];
  /** Unfinished downloads with no job (stopped, or cut by a restart): Resume continues them. */
  partial: PartialDownload[];
  downloads: DownloadJob[];
  catalog: readonly CatalogModel[];
  /** The largest file the page may upload (LOCAL_MODEL_UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
}

export class LocalModelError extends Error {
  override name = 'LocalModelError';
  constructor(
    message: string,
    /** The HTTP status a route answers with (400 bad input, 409 name taken, 413 too large, 422 not a GGUF). */
    readonly status = 400,
  ) {
    super(message);
  }
}

interface Job {
  view: DownloadJob;
  controller: AbortController;
  /** Woken on every change; followers wait on it. */
  changed: Promise<void>;
  wake: () => void;
}

const UPLOAD_SUFFIX = '.upload';
/** Bytes an upload must start with before its first check: the magic, and enough to say what the file is instead. */
const MAGIC_CHECK_BYTES = 16;

export class LocalModelFiles {
  private readonly jobs = new Map<string, Job>();
  /** Names being uploaded now (their <name>.upload files are in use). */
  private readonly uploading = new Set<string>();

  constructor(private readonly config: Pick<AppConfig, 'localModels' | 'web'>) {}

  get dir(): string {
    return this.config.localModels.dir;
  }

  async view(): Promise<LocalModelsView> {
    // The downloads are read before the folder: a download that ends in between then reads as running (the page
    // reads again when it ends), never as done with its file missing from the list (the page would not read again).
    const downloads = [...this.jobs.values()].map((j) => ({ ...j.view }));
    const running = new Set(downloads.filter((d) => d.state === 'running').map((d) => d.name));
    const { models, partial } = await listLocalModels(this.dir);
    return {
      dir: this.dir,
      models,
      partial: partial.filter((p) => !running.has(p.name)),
      downloads,
      catalog: LOCAL_MODEL_CATALOG,
      uploadMaxBytes: this.uploadMaxBytes,
    };
  }

  /**
   * Starts downloading a catalog model (`catalogId`) or any GGUF URL into the models folder; resolves with the file
   * name to follow. `allowHost`: the user allowed the URL's host although it is on a private network.
   */
  async start(input: { catalogId?: string; url?: string; allowHost?: boolean }): Promise<string> {
    const entry = input.catalogId ? catalogModel(input.catalogId) : undefined;
    if (input.catalogId && !entry) throw new LocalModelError(`"${input.catalogId}" is not in the catalog.`);
    const url = entry?.url ?? input.url?.trim();
    if (!url) throw new LocalModelError('Paste the URL of a .gguf file, or pick one from the catalog.');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new LocalModelError(`Not a valid URL: ${url}`);
    }
    let name: string;
    try {
      name = modelFileName(entry ? `${entry.id}.gguf` : parsed.pathname);
    } catch (e) {
      throw new LocalModelError(e instanceof Error ? e.message : String(e));
    }
    const existing = this.jobs.get(name);
    if (existing?.view.state === 'running') return name;
    const controller = new AbortController();
    const job: Job = { view: { name, url, state: 'running' }, controller, changed: Promise.resolve(), wake: () => {} };
    const rearm = () => {
      job.changed = new Promise((resolve) => (job.wake = resolve));
    };
    rearm();
    const notify = () => {
      const wake = job.wake;
      rearm();
      wake();
    };
    this.jobs.set(name, job);
    const base = { allowPrivate: this.config.web.fetch.allowPrivate, allowHosts: this.config.web.fetch.allowHosts };
    void downloadModel({
      url,
      name,
      modelsDir: this.dir,
      policy: downloadPolicy(base, input.allowHost ? url : undefined),
      signal: controller.signal,
      onProgress: (progress) => {
        job.view.progress = progress;
        notify();
      },
    }).then(
      () => {
        job.view.state = 'done';
        notify();
      },
      (e: unknown) => {
        const problem: DownloadProblem = isErrorNamed<DownloadError>(e, 'DownloadError') ? e.problem : 'network';
        job.view.state = problem === 'aborted' ? 'stopped' : 'failed';
        job.view.error = { problem, message: e instanceof Error ? e.message : String(e) };
        if (problem === 'blocked') job.view.blockedHost = parsed.hostname;
        notify();
      },
    );
    return name;
  }

  /** Stops a download; what arrived is kept (Resume continues it). False when none of that name is going. */
  stop(name: string): boolean {
    const job = this.jobs.get(name);
    if (!job || job.view.state !== 'running') return false;
    job.controller.abort();
    return true;
  }

  /** The job's state now, then at every change until it ends; undefined when there is no such job. */
  follow(name: string): AsyncGenerator<DownloadJob> | undefined {
    const job = this.jobs.get(name);
    if (!job) return undefined;
    return (async function* () {
      for (;;) {
        const next = job.changed;
        yield { ...job.view };
        if (job.view.state !== 'running') return;
        await next;
      }
    })();
  }

  /** Forgets an ended job (the page dismissed its message). */
  dismiss(name: string): void {
    if (this.jobs.get(name)?.view.state !== 'running') this.jobs.delete(name);
  }

  /** The largest file upload() takes (LOCAL_MODEL_UPLOAD_MAX_BYTES). */
  get uploadMaxBytes(): number {
    return this.config.localModels.uploadMaxBytes;
  }

  /**
   * A GGUF file sent from the browser: streamed to <name>.upload in the folder chunk by chunk (never held whole), its
   * first bytes checked for the GGUF magic as they arrive, the whole header once all is in, then renamed into place.
   * Refused when the name is taken, the file is over the size limit or the disk too small for it (from the declared
   * size, before a byte is written; else when the limit is passed), or it is not a whole GGUF. A refused or broken
   * upload (the client went away mid-file) leaves nothing behind.
   */
  async upload(input: {
    name: string;
    body: AsyncIterable<Uint8Array>;
    declaredSize?: number;
  }): Promise<LocalModelFile> {
    let name: string;
    try {
      name = modelFileName(input.name);
    } catch (e) {
      throw new LocalModelError(e instanceof Error ? e.message : String(e));
    }
    const max = this.uploadMaxBytes;
    const tooLarge = () =>
      new LocalModelError(
        `${name} was refused: it is larger than the ${formatBytes(max)} upload limit (LOCAL_MODEL_UPLOAD_MAX_BYTES).`,
        413,
      );
    if (input.declaredSize !== undefined && input.declaredSize > max) throw tooLarge();
    const target = path.join(this.dir, name);
    const temp = target + UPLOAD_SUFFIX;
    if (await exists(target)) throw new LocalModelError(`${name} is already in the models folder.`, 409);
    if (this.uploading.has(name)) throw new LocalModelError(`${name} is already being uploaded.`, 409);
    this.uploading.add(name);
    try {
      await mkdir(this.dir, { recursive: true });
      if (input.declaredSize !== undefined) await checkSpace(this.dir, input.declaredSize, name);
      // A temp file no upload of this process holds is what a killed server left: it goes.
      await rm(temp, { force: true });
      const out = await openFile(temp, 'wx');
      try {
        let size = 0;
        let head = Buffer.alloc(0);
        for await (const chunk of input.body) {
          size += chunk.byteLength;
          if (size > max) throw tooLarge();
          if (head.length < MAGIC_CHECK_BYTES) {
            head = Buffer.concat([head, chunk]).subarray(0, MAGIC_CHECK_BYTES);
            if (head.length === MAGIC_CHECK_BYTES && head.toString('latin1', 0, 4) !== 'GGUF')
              throw new LocalModelError(`${name} was refused. ${describeStart(head)}`, 422);
          }
          await out.write(chunk);
        }
        await out.close();
      } catch (e) {
        await out.close().catch(() => undefined);
        await rm(temp, { force: true });
        throw e;
      }
      let header;
      try {
        header = await readGgufHeader(temp);
      } catch (e) {
        await rm(temp, { force: true });
        if (isErrorNamed<GgufFormatError>(e, 'GgufFormatError'))
          throw new LocalModelError(`${name} was refused. ${e.message}`, 422);
        throw e;
      }
      if (await exists(target)) {
        await rm(temp, { force: true });
        throw new LocalModelError(`${name} is already in the models folder.`, 409);
      }
      await rename(temp, target);
      const info = await stat(target);
      return {
        name,
        file: target,
        sizeBytes: info.size,
        modifiedAt: info.mtime.toISOString(),
        summary: summarize(header),
      };
    } finally {
      this.uploading.delete(name);
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

async function checkSpace(dir: string, needed: number, name: string): Promise<void> {
  let free: number;
  try {
    const s = await statfs(dir);
    free = s.bavail * s.bsize;
  } catch {
    return;
  }
  if (needed > free)
    throw new LocalModelError(
      `Not enough disk space for ${name}: it needs ${formatBytes(needed)}, ${formatBytes(free)} is free.`,
      507,
    );
}
