// File-aware tools: the conversation's files are copied or downloaded into the tool's work directory before
// call(), under names that cannot leave that directory.
import { copyFile, mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseTool, type ToolContext } from './base-tool';
import { loadConfig } from '../lib/config';
import { safeFetch } from '../lib/net/safe-fetch';
import { dataDir } from './data-dir';

export const MAX_DOWNLOAD_BYTES = 50 * 1024 * 1024;
export const DOWNLOAD_TIMEOUT_MS = 30_000;
const MAX_NAME_LENGTH = 200;

/** A single safe path segment: no separators, no '..', no control or reserved characters, no leading dots. */
export function safeFileName(raw: string): string {
  let name = raw
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.\s]+/, '')
    .trim();
  if (name.length > MAX_NAME_LENGTH) {
    const ext = path.extname(name).slice(0, 20);
    name = name.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
  }
  return name || 'file';
}

function isHttpUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function localPath(source: string): string {
  return source.startsWith('file://') ? fileURLToPath(source) : source;
}

/** The sanitised basename a staged copy of `source` (URL or path) gets. */
export function stagedFileName(source: string): string {
  let base: string;
  if (isHttpUrl(source)) {
    const url = new URL(source);
    const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
    try {
      base = decodeURIComponent(last);
    } catch {
      base = last;
    }
    base ||= url.hostname;
  } else {
    base = localPath(source).replace(/\\/g, '/').split('/').filter(Boolean).pop() ?? '';
  }
  return safeFileName(base);
}

export function defaultWorkDir(toolName: string, conversationId?: string): string {
  return path.resolve(dataDir(), 'work', safeFileName(conversationId ?? 'default'), safeFileName(toolName));
}

export interface StageOptions {
  signal?: AbortSignal;
  maxBytes?: number;
  timeoutMs?: number;
}

async function download(
  url: string,
  target: string,
  opts: Required<Pick<StageOptions, 'maxBytes' | 'timeoutMs'>> & StageOptions,
): Promise<void> {
  // Through the SSRF guard: a conversation's URL must not reach the server's own network.
  const policy = loadConfig().web.fetch;
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

async function copyLocal(source: string, target: string): Promise<void> {
  const from = path.resolve(localPath(source));
  if (!(await stat(from)).isFile()) throw new Error('not a regular file');
  if (from !== target) await copyFile(from, target);
}

/**
 * Copies local paths (plain or file://) and downloads http(s) URLs into `workDir`. Failures are collected, never
 * thrown, except an abort of `opts.signal`. Returns the staged absolute paths, in order, without duplicates.
 */
export async function stageFiles(
  sources: readonly string[],
  workDir: string,
  opts: StageOptions = {},
): Promise<{ files: string[]; errors: string[] }> {
  const root = path.resolve(workDir);
  const limits = {
    ...opts,
    maxBytes: opts.maxBytes ?? MAX_DOWNLOAD_BYTES,
    timeoutMs: opts.timeoutMs ?? DOWNLOAD_TIMEOUT_MS,
  };
  const files: string[] = [];
  const errors: string[] = [];
  await mkdir(root, { recursive: true });
  for (const source of new Set(sources)) {
    try {
      const target = path.resolve(root, stagedFileName(source));
      if (!target.startsWith(root + path.sep)) throw new Error('target name escapes the work directory');
      if (isHttpUrl(source)) await download(source, target, limits);
      else await copyLocal(source, target);
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
  workDirFor(ctx: Pick<ToolContext, 'workDir' | 'conversationId'>): string {
    const configured = ctx.workDir ?? (typeof this.cfg.work_dir === 'string' ? this.cfg.work_dir : undefined);
    return configured ? path.resolve(configured) : defaultWorkDir(this.name, ctx.conversationId);
  }

  /** The context call() receives: files rewritten to staged absolute paths, workDir set, failures listed. */
  async stageFiles(ctx: ToolContext): Promise<ToolContext> {
    const workDir = this.workDirFor(ctx);
    const { files, errors } = await stageFiles(ctx.files, workDir, { signal: ctx.signal });
    return { ...ctx, files, workDir, stagingErrors: errors };
  }
}
