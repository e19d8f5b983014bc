// Which of the conversation's staged files a document tool call means. The model names files as it saw them in the
// upload notes ("report.pdf"), or by the path or URL given in the conversation; both match the staged copy by its
// name. Files outside the conversation are refused: a model (or a prompt injected into a document) must not be able
// to make the server read arbitrary paths or fetch arbitrary URLs.
import path from 'node:path';
import type { RetrievalFile } from '../lib/documents/search';
import type { ToolContext } from './base-tool';
import { stagedFileName } from './file-access';

export class FileNotSharedError extends Error {
  override name = 'FileNotSharedError';
}

function available(ctx: ToolContext): string {
  const names = ctx.files.map((f) => path.basename(f));
  const listed = names.length
    ? `The conversation's files: ${names.join(', ')}.`
    : 'No file was shared in this conversation.';
  const failed = ctx.stagingErrors?.length ? ` Files that could not be fetched: ${ctx.stagingErrors.join('; ')}.` : '';
  return listed + failed;
}

/** The staged files named by `requested` (all of them when `requested` is empty). Throws a readable error otherwise. */
export function pickFiles(requested: readonly string[], ctx: ToolContext): RetrievalFile[] {
  const staged = new Map(ctx.files.map((f) => [path.basename(f), f]));
  if (!requested.length) {
    if (!staged.size) throw new FileNotSharedError(available(ctx));
    return [...staged].map(([name, file]) => ({ path: file, name }));
  }
  const picked: RetrievalFile[] = [];
  const missing: string[] = [];
  for (const ref of requested) {
    const name = stagedFileName(ref.trim());
    const file = staged.get(name);
    if (!file) missing.push(ref);
    else if (!picked.some((p) => p.path === file)) picked.push({ path: file, name });
  }
  if (missing.length) {
    throw new FileNotSharedError(`Not a file of this conversation: ${missing.join(', ')}. ${available(ctx)}`);
  }
  return picked;
}
