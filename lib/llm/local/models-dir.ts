// The models folder (DATA_DIR/models): which GGUF files are there and what their headers say, which downloads are
// unfinished, and the safe way from a name the page sends to a file in the folder.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { GgufFormatError, readGgufHeader, type GgufHeader } from './gguf-header';
import { isErrorNamed } from '../../protocol/errors';

export const PART_SUFFIX = '.part';
export const PART_META_SUFFIX = '.part.json';

/** What the page needs to know of a model file, from its header. */
export interface GgufSummary {
  architecture: string;
  name?: string;
  contextLength?: number;
  quantization?: string;
  parameterCount: number;
  sizeLabel?: string;
  hasChatTemplate: boolean;
  /** The chat template renders tools (so native tool calls can follow it). */
  templateHasTools: boolean;
}

export interface LocalModelFile {
  /** Path relative to the models folder, with '/' (what the page shows and sends back). */
  name: string;
  /** Absolute path. */
  file: string;
  sizeBytes: number;
  modifiedAt: string;
  /** Present when the header reads; else `problem` says why the file cannot be used. */
  summary?: GgufSummary;
  problem?: string;
}

export interface PartialDownload {
  name: string;
  receivedBytes: number;
  totalBytes?: number;
  url?: string;
}

/** A model name that is not one of the models folder's (a conversation's or an agent's model setting): HTTP 400. */
export class ModelNameError extends Error {
  override name = 'ModelNameError';
  readonly status = 400;
}

export function summarize(h: GgufHeader): GgufSummary {
  return {
    architecture: h.architecture,
    name: h.name,
    contextLength: h.contextLength,
    quantization: h.quantization,
    parameterCount: h.parameterCount,
    sizeLabel: h.sizeLabel,
    hasChatTemplate: Boolean(h.chatTemplate),
    templateHasTools: /\btools\b/.test(h.chatTemplate ?? ''),
  };
}

/** A file name for a model: the last path segment, characters outside [A-Za-z0-9._-] replaced, ending in .gguf. */
export function modelFileName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? '';
  let name = decodeURIComponentSafe(last.split(/[?#]/)[0] ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '');
  if (!name.toLowerCase().endsWith('.gguf')) name = `${name.replace(/\.+$/, '')}.gguf`;
  if (name === '.gguf' || name.length > 200) throw new ModelNameError(`Cannot make a model file name of "${raw}".`);
  return name;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The absolute path of model `name` (relative, '/'-separated) inside `modelsDir`; refuses anything outside it. */
export function resolveLocalModel(modelsDir: string, name: string): string {
  const parts = name.split('/');
  if (!name || name.includes('\\') || path.isAbsolute(name) || parts.some((p) => !p || p === '.' || p === '..'))
    throw new ModelNameError(`"${name}" is not a model name in the models folder.`);
  if (!name.toLowerCase().endsWith('.gguf')) throw new ModelNameError(`"${name}" is not a .gguf file.`);
  return path.join(modelsDir, ...parts);
}

async function walk(dir: string, rel: string, depth: number, out: { rel: string; abs: string }[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const abs = path.join(dir, e.name);
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && depth < 3) await walk(abs, r, depth + 1, out);
    else if (e.isFile() || e.isSymbolicLink()) out.push({ rel: r, abs });
  }
}

/** The GGUF files under `modelsDir` (newest first) with their header summaries, and the unfinished downloads. */
export async function listLocalModels(
  modelsDir: string,
): Promise<{ models: LocalModelFile[]; partial: PartialDownload[] }> {
  const files: { rel: string; abs: string }[] = [];
  await walk(modelsDir, '', 0, files);
  const models: LocalModelFile[] = [];
  const partial: PartialDownload[] = [];
  for (const f of files) {
    const lower = f.rel.toLowerCase();
    if (lower.endsWith(PART_SUFFIX)) {
      const info = await stat(f.abs);
      const meta = await readPartMeta(f.abs);
      partial.push({
        name: f.rel.slice(0, -PART_SUFFIX.length),
        receivedBytes: info.size,
        ...(meta?.totalBytes ? { totalBytes: meta.totalBytes } : {}),
        ...(meta?.url ? { url: meta.url } : {}),
      });
      continue;
    }
    if (!lower.endsWith('.gguf')) continue;
    let info;
    try {
      info = await stat(f.abs); // follows a symlink: a model linked in from elsewhere counts
    } catch {
      continue;
    }
    if (!info.isFile()) continue;
    const entry: LocalModelFile = {
      name: f.rel,
      file: f.abs,
      sizeBytes: info.size,
      modifiedAt: info.mtime.toISOString(),
    };
    try {
      entry.summary = summarize(await readGgufHeader(f.abs));
    } catch (e) {
      if (!isErrorNamed<GgufFormatError>(e, 'GgufFormatError')) throw e;
      entry.problem = e.message;
    }
    models.push(entry);
  }
  models.sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt) || a.name.localeCompare(b.name));
  return { models, partial };
}

export interface PartMeta {
  url: string;
  etag?: string;
  lastModified?: string;
  totalBytes?: number;
}

export async function readPartMeta(partFile: string): Promise<PartMeta | undefined> {
  try {
    const meta = JSON.parse(await readFile(partFile.slice(0, -PART_SUFFIX.length) + PART_META_SUFFIX, 'utf8'));
    return typeof meta?.url === 'string' ? (meta as PartMeta) : undefined;
  } catch {
    return undefined;
  }
}
