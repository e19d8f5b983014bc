// Which of the conversation's staged files a document tool call means. The model names files as it saw them in the
// upload notes ("report.pdf"), or by the path or URL given in the conversation; both match the staged copy by its
// name. Files outside the conversation are refused: a model (or a prompt injected into a document) must not be able
// to make the server read arbitrary paths or fetch arbitrary URLs. The conversation's images are staged too (for
// the tools that read them), but they are no documents: "all files" leaves them out.
import path from 'node:path';
import type { RetrievalFile } from '../lib/documents/search';
import { distinctNames, nameFromLink } from '../lib/llm/attachment-name';
import { safeFileName } from '../lib/documents/file-ref';
import { collectFileRefs } from '../lib/llm/upload-info';
import type { ToolContext } from './base-tool';
import { stagedFileName } from './file-access';

export class FileNotSharedError extends Error {
  override name = 'FileNotSharedError';
}

function available(ctx: ToolContext): string {
  const images = imageNames(ctx);
  const names = ctx.files.map((f) => path.basename(f));
  const documents = names.filter((n) => !images.has(n));
  const listed = documents.length
    ? `The conversation's files: ${documents.join(', ')}.`
    : names.length
      ? `No document was shared in this conversation (its images are not documents: ${names.join(', ')}).`
      : 'No file was shared in this conversation.';
  const failed = ctx.stagingErrors?.length ? ` Files that could not be fetched: ${ctx.stagingErrors.join('; ')}.` : '';
  return listed + failed;
}

/** The staged files named by `requested` (all of them when `requested` is empty). Throws a readable error otherwise. */
export function pickFiles(requested: readonly string[], ctx: ToolContext): RetrievalFile[] {
  const { picked, missing } = match(requested, ctx);
  if (missing.length) throw notShared(missing, ctx);
  if (!picked.length) throw new FileNotSharedError(available(ctx));
  return picked;
}

/**
 * As pickFiles, but a name that is not one of the conversation's files widens the search to all of them (a model
 * often names the file a little differently, or one it imagines) instead of failing; `notice` then says so, for the
 * tool's result. Still only the conversation's own files: nothing else is read.
 */
export function pickFilesOrAll(
  requested: readonly string[],
  ctx: ToolContext,
): { files: RetrievalFile[]; notice?: string } {
  const { missing } = match(requested, ctx);
  if (!missing.length) return { files: pickFiles(requested, ctx) };
  const files = match([], ctx).picked;
  if (!files.length) throw notShared(missing, ctx);
  const names = files.map((f) => f.name).join(ctx.lang === 'zh' ? '、' : ', ');
  const notice =
    ctx.lang === 'zh'
      ? `${missing.join('、')}：不是本对话的文件，因此改为检索了本对话的全部文件：${names}。`
      : `${missing.join(', ')}: not a file of this conversation, so all of its files were searched instead: ${names}.`;
  return { files, notice };
}

function notShared(missing: readonly string[], ctx: ToolContext): FileNotSharedError {
  return new FileNotSharedError(`Not a file of this conversation: ${missing.join(', ')}. ${available(ctx)}`);
}

/** The staged files `requested` names (the conversation's documents when it is empty), and the names that are none
 *  of them. */
function match(requested: readonly string[], ctx: ToolContext): { picked: RetrievalFile[]; missing: string[] } {
  const staged = new Map(ctx.files.map((f) => [path.basename(f), f]));
  if (!requested.length) {
    const images = imageNames(ctx);
    const documents = [...staged].filter(([name]) => !images.has(name));
    return { picked: documents.map(([name, file]) => ({ path: file, name })), missing: [] };
  }
  const picked: RetrievalFile[] = [];
  const missing: string[] = [];
  for (const ref of requested) {
    const found = namedFile(ref, staged);
    if (!found) missing.push(ref);
    else if (!picked.some((p) => p.path === found.path)) picked.push(found);
  }
  return { picked, missing };
}

/** The staged file a name from the model means: the name as written, as the upload note's link wrote it
 *  (`<name>`, or the whole `[file](…)`), or either percent-decoded. */
function namedFile(ref: string, staged: ReadonlyMap<string, string>): RetrievalFile | undefined {
  const written = [ref.trim(), nameFromLink(ref)];
  for (const form of [...written, ...written.map(percentDecoded)]) {
    const name = stagedFileName(form);
    const file = staged.get(name);
    if (file) return { path: file, name };
  }
  return undefined;
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Staged names of the conversation's images (image items that no file item also names). */
function imageNames(ctx: ToolContext): Set<string> {
  const documents = new Set(collectFileRefs(ctx.messages, { images: false }));
  const names = distinctNames(collectFileRefs(ctx.messages));
  return new Set([...names].filter(([ref]) => !documents.has(ref)).map(([, name]) => safeFileName(name)));
}
