// The documents a run reads: the agent's own files and every file item of the conversation, made local. Uploads
// are read where they are stored (other local paths only where the process allows them, as staging does); http(s)
// URLs are downloaded into the run's work directory first. Shared by the agents that search or read documents
// before they answer (the Assistant and its kinds, the doc-QA agents, the keyword strategies with knowledge).
import { defaultWorkDir, resolveLocalFile, stageFiles, type ToolSettings } from '../../tools';
import type { RetrievalFile } from '../documents/search';
import { contentText, type Message } from '../llm/schema';
import { distinctNames } from '../llm/attachment-name';
import { collectFileRefs } from '../llm/upload-info';
import type { RunState } from './run-state';

/** The file references a run's documents come from: the agent's, then the conversation's file items (images are
 *  not documents), each once. */
export function documentRefs(agentFiles: readonly string[], messages: readonly Message[]): string[] {
  return [...new Set([...agentFiles, ...collectFileRefs(messages, { images: false })])];
}

/** The name each of the run's files goes by, as the upload note tells them and the tools stage them: the
 *  conversation's files first, then the agent's; a name an earlier file has is numbered ("notes (2).txt"). */
export function runFileNames(agentFiles: readonly string[], messages: readonly Message[]): Map<string, string> {
  return distinctNames([...collectFileRefs(messages), ...agentFiles]);
}

/** The text of the last message when it is the user's (the question a search is for), else ''. */
export function lastUserQuestion(messages: readonly Message[]): string {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : contentText(last.content);
}

/** `refs` as local files, with the agent's tool `settings` (DATA_DIR, whether other local paths may be read, the fetch
 *  policy), each named as `names` has it (runFileNames: two files of one name are found and cited apart); those that
 *  cannot be had are listed in `errors`, one sentence each. */
export async function localFiles(
  refs: readonly string[],
  run: RunState,
  settings: ToolSettings,
  tool = 'assistant',
  names: ReadonlyMap<string, string> = new Map(),
): Promise<{ files: RetrievalFile[]; errors: string[] }> {
  const remote = refs.filter((r) => /^https?:\/\//i.test(r));
  const files: RetrievalFile[] = [];
  const errors: string[] = [];
  const where = { dataDir: settings.dataDir, allowAnyPath: settings.allowLocalPaths };
  for (const ref of refs) {
    if (remote.includes(ref)) continue;
    try {
      const file = await resolveLocalFile(ref, where, run.options.uploadAccess);
      files.push({ ...file, name: names.get(ref) ?? file.name });
    } catch (e) {
      errors.push(`${ref}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (!remote.length) return { files, errors };
  const workDir = run.options.workDir ?? defaultWorkDir(settings.dataDir, tool, run.options.conversationId);
  const staged = await stageFiles(remote, workDir, { signal: run.signal, settings });
  return { files: [...files, ...staged.files.map((p) => ({ path: p }))], errors: [...errors, ...staged.errors] };
}
