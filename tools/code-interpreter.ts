// `code_interpreter`: Qwen-Agent's Python sandbox, run with CPython in bubblewrap or with Pyodide in a sandboxed
// child process (lib/sandbox) instead of a Jupyter kernel in Docker. One warm interpreter per conversation; its work
// directory holds the conversation's files and whatever the code writes.
import type { BackendChoice, BackendName } from '../lib/sandbox/backend';
import type { WrittenFile } from '../lib/sandbox/files';
import type { ToolFile } from '../lib/protocol/events';
import { FailedToolOutput, ToolOutputWithFiles, type ToolContext, type ToolOutput } from './base-tool';
import { parseToolArgs } from './args';
import { ToolArgumentsError } from './errors';
import { BaseToolWithFileAccess, defaultWorkDir, safeFileName } from './file-access';
import { registerTool } from './registry';
import { settingsOf, type ToolSettings } from './settings';

export const CODE_INTERPRETER = 'code_interpreter';

/** Where a conversation's code_interpreter files live under `dataDir` (what app/api/artifacts serves). */
export function codeWorkDir(dataDir: string, conversationId: string): string {
  return defaultWorkDir(dataDir, CODE_INTERPRETER, conversationId);
}

/** The same directory's folder in the blob store (lib/blob): what app/api/artifacts reads. */
export function codeWorkPrefix(conversationId: string): string {
  return `work/${safeFileName(conversationId)}/${CODE_INTERPRETER}/`;
}

/**
 * The code in a call's arguments, as upstream accepts it: `{"code": ...}` (JSON or JSON5), else the first fenced
 * block (```py ... ```), else the whole text.
 */
export function extractCode(raw: string | Record<string, unknown>): { code: string; reset?: boolean } {
  try {
    const args = parseToolArgs(raw);
    if (typeof args.code === 'string') return { code: args.code, reset: args.reset === true ? true : undefined };
    if (Object.keys(args).length > 0 || typeof raw !== 'string') return args as { code: string };
  } catch {
    // not JSON: a code block or bare code
  }
  const text = typeof raw === 'string' ? raw : '';
  const fenced = /```[^\n]*\n([\s\S]*?)```/.exec(text);
  return { code: fenced ? fenced[1]! : text };
}

const DESCRIPTION =
  'Python code sandbox, which can be used to execute Python code. Variables and imports persist between calls ' +
  "in the same conversation; the conversation's files are in the working directory, and files the code writes " +
  'there are shown to the user. ';
const PACKAGES: Record<BackendChoice['backend'], string> = {
  python:
    'numpy, pandas (read_csv, read_excel) and matplotlib are installed; plt.show(), or a figure left open, shows ' +
    'the chart to the user as an image file. A printed table stays text. There is no network.',
  pyodide: 'Only the standard library (and any configured extra packages) is available; there is no network.',
};

function fileLines(files: WrittenFile[]): string {
  return `files:\n\n${files.map((f) => `- ${f.name} (${f.bytes} bytes)`).join('\n')}`;
}

/** An image as upstream gives the model its figures (`![fig-001](url)`): an answer can show it by the same Markdown. */
function markdownImage(name: string, url: string): string {
  const alt = name.replace(/[\\[\]]/g, '\\$&');
  return `![${alt}](${url.replace(/\(/g, '%28').replace(/\)/g, '%29')})`;
}

export class CodeInterpreterTool extends BaseToolWithFileAccess {
  name = CODE_INTERPRETER;
  /** The backend that runs here, once prepare() found it out. */
  private backend?: BackendName;

  get description(): string {
    return this.backend ? DESCRIPTION + PACKAGES[this.backend] : `${DESCRIPTION}There is no network.`;
  }
  parameters = {
    type: 'object',
    properties: {
      code: { type: 'string', description: 'The Python code to run.' },
      reset: {
        type: 'boolean',
        description: 'Start from a fresh interpreter first (forgets variables and imports; files stay).',
      },
    },
    required: ['code'],
  };

  /** The description names the backend's packages: find out which backend runs before the model sees it. */
  override async prepare(settings: ToolSettings): Promise<void> {
    try {
      this.backend = settings.sandbox.knownBackend() ?? (await settings.sandbox.backend()).backend;
    } catch {
      // a configuration error: call() reports it
    }
  }

  override get argsFormat(): string {
    if (typeof this.cfg.args_format === 'string') return this.cfg.args_format;
    return 'The input for this tool should be a Markdown code block.';
  }

  /** Accepts a fenced code block or bare code as well as JSON, like upstream. */
  override parseArgs<T = Record<string, unknown>>(params: string | Record<string, unknown>): T {
    return extractCode(params) as T;
  }

  async call(params: string, ctx: ToolContext): Promise<ToolOutput> {
    const { code, reset } = extractCode(params);
    if (!code.trim())
      throw new ToolArgumentsError('There is no code to run: give Python code as {"code": "..."} or in a ``` block.');
    const workDir = ctx.workDir ?? this.workDirFor(ctx);
    const { sandbox, dataDir } = settingsOf(ctx);
    const timeoutMs = typeof this.cfg.timeout_ms === 'number' ? this.cfg.timeout_ms : sandbox.config.timeoutMs;

    const { pool } = await sandbox.interpreters();
    const [
      { snapshotDir, writtenFiles, artifactUrl, mimeOf, isInlineImage },
      { formatOutcome, outcomeFailure, RESTARTED },
    ] = await Promise.all([import('../lib/sandbox/files'), import('../lib/sandbox/format')]);
    const before = await snapshotDir(workDir);
    const outcome = await pool.run(workDir, {
      workDir,
      code,
      reset,
      timeoutMs,
      signal: ctx.signal,
      // From here a stop kills the interpreter, as the time limit does: the model and the user are told so.
      onRunning: () => ctx.setStopNote?.(RESTARTED),
    });
    ctx.setStopNote?.(undefined);
    const written = writtenFiles(before, await snapshotDir(workDir));

    // Files are offered to the page only from the directory the artifacts route serves.
    const conversationId = ctx.conversationId;
    const servable = conversationId !== undefined && workDir === codeWorkDir(dataDir, conversationId);
    const files: ToolFile[] = servable
      ? written.map((f) => ({
          name: f.name,
          url: artifactUrl(conversationId, f.name),
          mime: mimeOf(f.name),
          bytes: f.bytes,
        }))
      : [];

    const parts = [formatOutcome(outcome)];
    const images = files.filter((f) => isInlineImage(f.mime));
    if (images.length) parts.push(images.map((f) => markdownImage(f.name, f.url)).join('\n\n'));
    if (written.length) parts.push(fileLines(written));
    if (ctx.stagingErrors?.length)
      parts.push(`Some files could not be put in the working directory:\n${ctx.stagingErrors.join('\n')}`);
    const text = parts.join('\n\n');

    const failure = outcomeFailure(outcome);
    if (failure) return new FailedToolOutput(text, failure, files);
    return files.length ? new ToolOutputWithFiles(text, files) : text;
  }
}

registerTool(CODE_INTERPRETER)(CodeInterpreterTool);
