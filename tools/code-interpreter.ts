// `code_interpreter`: Qwen-Agent's Python sandbox, run with Pyodide in a sandboxed child process (lib/sandbox)
// instead of a Jupyter kernel in Docker. One warm interpreter per conversation; its work directory holds the
// conversation's files and whatever the code writes.
import { loadConfig } from '../lib/config';
import type { WrittenFile } from '../lib/sandbox/files';
import type { InterpreterPool } from '../lib/sandbox/pool';
import { ToolOutputWithFiles, type ToolContext, type ToolOutput } from './base-tool';
import { parseToolArgs } from './args';
import { ToolArgumentsError } from './errors';
import { BaseToolWithFileAccess, defaultWorkDir } from './file-access';
import { registerTool } from './registry';

export const CODE_INTERPRETER = 'code_interpreter';

/** Where a conversation's code_interpreter files live (what app/api/artifacts serves). */
export function codeWorkDir(conversationId: string): string {
  return defaultWorkDir(CODE_INTERPRETER, conversationId);
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

/** The sandbox loads with the first call, not with the tool (an agent offered code_interpreter may never run it). */
async function sandbox() {
  const [files, format, pool] = await Promise.all([
    import('../lib/sandbox/files'),
    import('../lib/sandbox/format'),
    import('../lib/sandbox/pool'),
  ]);
  return { ...files, ...format, interpreterPool: () => interpreterPool(pool.sharedPool) };
}

function interpreterPool(sharedPool: (typeof import('../lib/sandbox/pool'))['sharedPool']): InterpreterPool {
  const c = loadConfig().codeInterpreter;
  return sharedPool({
    memoryMb: c.memoryMb,
    diskMb: c.diskMb,
    jsHeapMb: c.jsHeapMb,
    outputChars: c.outputChars,
    packagesDir: c.packagesDir,
    networkNamespace: c.networkNamespace,
    maxInterpreters: c.maxInterpreters,
    idleMs: c.idleMs,
  });
}

function fileLines(files: WrittenFile[]): string {
  return `files:\n\n${files.map((f) => `- ${f.name} (${f.bytes} bytes)`).join('\n')}`;
}

export class CodeInterpreterTool extends BaseToolWithFileAccess {
  name = CODE_INTERPRETER;
  description =
    'Python code sandbox, which can be used to execute Python code. Variables and imports persist between calls ' +
    "in the same conversation; the conversation's files are in the working directory, and files the code writes " +
    'there are shown to the user. Only the standard library (and any configured extra packages) is available; ' +
    'there is no network.';
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
    const timeoutMs =
      typeof this.cfg.timeout_ms === 'number' ? this.cfg.timeout_ms : loadConfig().codeInterpreter.timeoutMs;

    const { snapshotDir, writtenFiles, formatOutcome, artifactUrl, mimeOf, interpreterPool } = await sandbox();
    const before = await snapshotDir(workDir);
    const outcome = await interpreterPool().run(workDir, { workDir, code, reset, timeoutMs, signal: ctx.signal });
    const written = writtenFiles(before, await snapshotDir(workDir));

    const parts = [formatOutcome(outcome)];
    if (written.length) parts.push(fileLines(written));
    if (ctx.stagingErrors?.length)
      parts.push(`Some files could not be put in the working directory:\n${ctx.stagingErrors.join('\n')}`);
    const text = parts.join('\n\n');

    // Files are offered to the page only from the directory the artifacts route serves.
    const servable = ctx.conversationId !== undefined && workDir === codeWorkDir(ctx.conversationId);
    if (!servable || !written.length) return text;
    const conversationId = ctx.conversationId!;
    return new ToolOutputWithFiles(
      text,
      written.map((f) => ({
        name: f.name,
        url: artifactUrl(conversationId, f.name),
        mime: mimeOf(f.name),
        bytes: f.bytes,
      })),
    );
  }
}

registerTool(CODE_INTERPRETER)(CodeInterpreterTool);
