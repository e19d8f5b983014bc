// File-aware tools: the conversation's files are copied or downloaded into the tool's work directory before
// call(), under names that cannot leave that directory.
import { copyFile, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesDir, parseFileRef, safeFileName, storedFilePath } from '../lib/documents/file-ref';
import { attachmentName, distinctNames } from '../lib/llm/attachment-name';
import { uploadedFile } from '../lib/documents/storage';
import { pullDir, pushChanges, snapshot } from '../lib/blob/work-dir';
import { BaseTool, type ToolContext, type ToolOutput } from './base-tool';
import { safeFetch } from '../lib/net/safe-fetch';
import { defaultToolSettings, settingsOf, type ToolSettings } from './settings';
import { sharedWorkDir } from './work-files';

export const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;
export const DOWNLOAD_TIMEOUT_MS = 30_000;

export { safeFileName };
function isHttpUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function localPath(source: string): string {
  return source.startsWith('file://') ? fileURLToPath(source) : source;
}

/** The sanitised basename a staged copy of `source` (upload reference, URL or path) gets: the name the model is told
 *  in the upload note (lib/llm/attachment-name.ts), made safe. */
export function stagedFileName(source: string): string {
  return safeFileName(attachmentName(source));
}

/** <dataDir>/work/<conversation>/<tool>: a tool's work directory in a conversation. */
export function defaultWorkDir(dataDir: string, toolName: string, conversationId?: string): string {
  return path.resolve(dataDir, 'work', safeFileName(conversationId ?? 'default'), safeFileName(toolName));
}

/** Whether the run may read the uploaded bytes with this hash (its owner uploaded them). A reference to anyone else's
 *  upload is refused exactly as a missing one is, so it tells nothing about them. */
export type UploadAccess = (hash: string) => Promise<boolean>;

export interface StageOptions {
  signal?: AbortSignal;
  /** Checks each upload reference (files/<sha256>/<name>) before its bytes are staged. */
  uploadAccess?: UploadAccess;
  maxBytes?: number;
  timeoutMs?: number;
  /** Stage local paths outside DATA_DIR/files too (default: the settings' allowLocalPaths). */
  allowLocalPaths?: boolean;
  /** Where uploads are (dataDir), the fetch policy for URLs, whether local paths may be staged (default: an empty
   *  environment's). */
  settings?: FileSettings;
}

/** What staging takes from the tool settings. Messages from the page carry upload references
 *  (files/<sha256>/<name>) or URLs; a local path there would let a message read any file of the server, so only a
 *  process that takes its messages from its own user (the CLI) sets allowLocalPaths. */
export type FileSettings = Pick<ToolSettings, 'dataDir' | 'webFetch' | 'allowLocalPaths'>;

/** Lets stageFiles copy any local path for agents and tools given no settings (the core used from a script whose
 *  messages come from its own user); an app passes `toolSettings(config, { allowLocalPaths })` instead. */
export function allowLocalFileStaging(allowed = true): void {
  defaultToolSettings().allowLocalPaths = allowed;
}

async function download(
  url: string,
  target: string,
  opts: Required<Pick<StageOptions, 'maxBytes' | 'timeoutMs'>> & StageOptions,
  policy: FileSettings['webFetch'],
): Promise<void> {
  // Through the SSRF guard: a conversation's URL must not reach the server's own network.
  const res = await safeFetch(url, {
    ...policy,
    maxBytes: opts.maxBytes,
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
  }).catch((e: unknown) => {
    if (e instanceof Error && /larger than/.test(e.message))
      throw new Error(`file is larger than the ${opts.maxBytes}-byte limit`);
    throw e;
  });
  if (res.status < 200 || res.status >= 300) throw new Error(`download failed with HTTP ${res.status}`);
  await writeFile(target, res.body);
}

/**
 * Where a local source's bytes are, and its display name: an upload reference (`files/<sha256>/<name>`) resolves to
 * the stored bytes under `dataDir`; another local path only inside the uploaded files, unless `allowAnyPath`. Throws
 * a readable Error otherwise.
 */
export async function resolveLocalFile(
  source: string,
  { dataDir, allowAnyPath }: { dataDir: string; allowAnyPath: boolean },
  uploadAccess?: UploadAccess,
): Promise<{ path: string; name: string }> {
  const ref = parseFileRef(source);
  const removed = 'the uploaded file no longer exists (it was removed)';
  const uploads = filesDir(dataDir);
  const from = ref ? storedFilePath(dataDir, ref.hash) : path.resolve(localPath(source));
  const inUploads = from.startsWith(uploads + path.sep);
  if (!ref && !allowAnyPath && !inUploads) {
    throw new Error('local paths outside the uploaded files are not staged; upload the file instead');
  }
  // The stored bytes are the caller's only when one of their uploads has them: by reference or by a path into
  // DATA_DIR/files alike (another user's reads exactly as a removed one).
  const hash = ref ? ref.hash : inUploads ? path.relative(uploads, from).split(path.sep)[0]! : undefined;
  if (hash !== undefined && uploadAccess && !(await uploadAccess(hash))) throw new Error(removed);
  // With S3 this instance may not have the bytes yet: they come from the bucket.
  if (hash !== undefined && /^[0-9a-f]{64}$/.test(hash)) await uploadedFile(dataDir, hash);
  let info;
  try {
    info = await stat(from);
  } catch {
    throw new Error(ref ? removed : 'no such file');
  }
  if (!info.isFile()) throw new Error('not a regular file');
  return { path: from, name: ref ? ref.name : stagedFileName(source) };
}

async function copyLocal(
  source: string,
  target: string,
  where: { dataDir: string; allowAnyPath: boolean },
  uploadAccess?: UploadAccess,
): Promise<void> {
  const { path: from } = await resolveLocalFile(source, where, uploadAccess);
  if (from !== target) await copyFile(from, target);
}

/**
 * Copies local paths (plain or file://) and downloads http(s) URLs into `workDir`, each under its name in the run
 * (distinctNames: a second "notes.txt" is staged as "notes (2).txt", not over the first). Failures are collected,
 * never thrown, except an abort of `opts.signal`. Returns the staged absolute paths, in order, without duplicates.
 */
export async function stageFiles(
  sources: readonly string[],
  workDir: string,
  opts: StageOptions = {},
): Promise<{ files: string[]; errors: string[] }> {
  const root = path.resolve(workDir);
  const settings = opts.settings ?? defaultToolSettings();
  const where = { dataDir: settings.dataDir, allowAnyPath: opts.allowLocalPaths ?? settings.allowLocalPaths };
  const limits = {
    ...opts,
    maxBytes: opts.maxBytes ?? MAX_DOWNLOAD_BYTES,
    timeoutMs: opts.timeoutMs ?? DOWNLOAD_TIMEOUT_MS,
  };
  const files: string[] = [];
  const errors: string[] = [];
  await mkdir(root, { recursive: true });
  const names = distinctNames(sources);
  for (const [source, name] of names) {
    try {
      const target = path.resolve(root, safeFileName(name));
      if (!target.startsWith(root + path.sep)) throw new Error('target name escapes the work directory');
      if (isHttpUrl(source)) await download(source, target, limits, settings.webFetch);
      else await copyLocal(source, target, where, opts.uploadAccess);
      if (!files.includes(target)) files.push(target);
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason;
      const reason =
        err instanceof Error
          ? err.name === 'TimeoutError'
            ? `timed out after ${limits.timeoutMs} ms`
            : err.message
          : String(err);
      errors.push(`${source}: ${reason}`);
    }
  }
  return { files, errors };
}

/** A tool that works on the conversation's files: runTool stages them into its work directory before call(). */
export abstract class BaseToolWithFileAccess extends BaseTool {
  override readonly fileAccess = true;

  /** ctx.workDir, else cfg.work_dir, else <DATA_DIR>/work/<conversation>/<tool>. */
  workDirFor(ctx: Pick<ToolContext, 'workDir' | 'conversationId' | 'settings'>): string {
    const configured = ctx.workDir ?? (typeof this.cfg.work_dir === 'string' ? this.cfg.work_dir : undefined);
    return configured
      ? path.resolve(configured)
      : defaultWorkDir(settingsOf(ctx).dataDir, this.name, ctx.conversationId);
  }

  /**
   * call() with the files staged. With S3 a default work directory is first brought up to date from the bucket,
   * and what the call wrote or deleted there goes to the bucket after it (tools/work-files.ts).
   */
  async callWithFiles(rawArgs: string, ctx: ToolContext): Promise<ToolOutput> {
    const shared = sharedWorkDir(settingsOf(ctx).dataDir, this.workDirFor(ctx));
    if (shared) await pullDir(shared);
    const staged = await this.stageFiles(ctx);
    if (!shared) return this.call(rawArgs, staged);
    const before = await snapshot(shared.dir);
    let output: ToolOutput;
    try {
      output = await this.call(rawArgs, staged);
    } catch (e) {
      await pushChanges(shared, before, await snapshot(shared.dir)).catch(() => undefined); // the call's error says more
      throw e;
    }
    await pushChanges(shared, before, await snapshot(shared.dir));
    return output;
  }

  /** The context call() receives: files rewritten to staged absolute paths, workDir set, failures listed. */
  async stageFiles(ctx: ToolContext): Promise<ToolContext> {
    const workDir = this.workDirFor(ctx);
    const { files, errors } = await stageFiles(ctx.files, workDir, {
      signal: ctx.signal,
      uploadAccess: ctx.uploadAccess,
      settings: settingsOf(ctx),
    });
    return { ...ctx, files, workDir, stagingErrors: errors };
  }
}
