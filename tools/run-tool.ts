// One tool call as the agent loop needs it: never throws for ordinary failures, which become text for the model.
import { logError, shortMessage } from '../lib/llm/error-report';
import { ContentItemSchema, type ContentItem } from '../lib/protocol/message';
import { validateToolArgs } from './args';
import type { ToolFile } from '../lib/protocol/events';
import {
  FailedToolOutput,
  ToolOutputWithFiles,
  type BaseTool,
  type ToolContext,
  type ToolFailure,
  type ToolOutput,
} from './base-tool';
import { isToolServiceError, type ToolArgumentsError } from './errors';
import { BaseToolWithFileAccess } from './file-access';
import { blockedAddressIn } from '../lib/net/address-policy';
import { codedOf, isErrorNamed, type ErrorCode, type ErrorValues } from '../lib/protocol/errors';

export type ToolRunResult =
  | { ok: true; content: string | ContentItem[]; files?: ToolFile[] }
  | {
      ok: false;
      /** The readable error text; for `failed`, the tool's own result. */
      content: string | ContentItem[];
      error: {
        kind: 'invalid-arguments' | 'exception' | 'failed';
        message: string;
        type: string;
        /** The shared code the page says the failure with, in its language (the tool's own words inside). */
        code?: ErrorCode;
        values?: ErrorValues;
      };
      files?: ToolFile[];
    };

/** Upstream's sentence with its grammar mended ("does not exists" there): people read it on the tool card too. */
export function unknownToolResult(name: string): string {
  return `Tool ${name} does not exist.`;
}

function contentItems(value: unknown): ContentItem[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const items: ContentItem[] = [];
  for (const v of value) {
    const parsed = ContentItemSchema.safeParse(v);
    if (!parsed.success) return undefined;
    items.push(parsed.data);
  }
  return items;
}

/** A tool's return value as function-message content: text as is, multimodal items kept, anything else as JSON. */
export function normalizeToolOutput(value: ToolOutput | undefined): string | ContentItem[] {
  if (value instanceof ToolOutputWithFiles) return normalizeToolOutput(value.output);
  if (typeof value === 'string') return value;
  return contentItems(value) ?? JSON.stringify(value ?? null, null, 4) ?? 'null';
}

function invalidArguments(tool: BaseTool, rawArgs: string, err: ToolArgumentsError): ToolRunResult {
  const content =
    `Invalid arguments for tool \`${tool.name}\`: ${err.message}\n` +
    `Arguments received: ${rawArgs}\n` +
    'Please call the tool again with corrected arguments.';
  const values = { tool: tool.name, detail: err.message };
  const error = {
    kind: 'invalid-arguments',
    message: err.message,
    type: err.name,
    code: 'tool-arguments-invalid',
    values,
  } as const;
  return { ok: false, content, error };
}

/** A failed result's failure as its event says it: a coded one names the tool, and its one line is the detail. */
function pick(tool: BaseTool, { type, message, code, values }: ToolFailure): ToolFailure {
  return code ? { type, message, code, values: { tool: tool.name, detail: message, ...values } } : { type, message };
}

/** The shared code a tool's exception is said with on the page, the tool's own words (`message`) inside: the code
 *  the error carries, else one for the common failures (a time limit, a file that is not there, an address the
 *  policy refused), else the plain `tool-failed`. What the model is told does not depend on it. */
function failureCode(
  tool: string,
  err: unknown,
  type: string,
  message: string,
): { code: ErrorCode; values: ErrorValues } {
  const own = codedOf(err);
  if (own) return { code: own.code, values: { tool, detail: message, ...own.values } };
  const blocked = blockedAddressIn(err) as { host?: unknown } | undefined;
  if (blocked && typeof blocked.host === 'string')
    return { code: 'tool-address-refused', values: { tool, host: blocked.host } };
  if (type === 'TimeoutError') return { code: 'tool-timeout', values: { tool, detail: message } };
  if (isErrorNamed(err, 'FileNotSharedError', 'KeyNotExistsError'))
    return { code: 'tool-file-missing', values: { tool, detail: message } };
  return { code: 'tool-failed', values: { tool, type, detail: message } };
}

/** Upstream hands the model the type, the message and the stack; here the stack (the server's paths and frames)
 *  goes to the server's log only, under an id the model and the page are given instead. */
function exception(tool: BaseTool, err: unknown): ToolRunResult {
  const type = err instanceof Error ? err.name || err.constructor.name : typeof err;
  const id = logError(`tool ${tool.name} failed`, err);
  const message = `${shortMessage(err instanceof Error ? err.message : String(err))} (error id ${id})`;
  const content = `An error occurred when calling tool \`${tool.name}\`:\n${type}: ${message}`;
  return {
    ok: false,
    content,
    error: { kind: 'exception', message, type, ...failureCode(tool.name, err, type, message) },
  };
}

/**
 * Parses and validates `rawArgs`, stages files for file-aware tools, calls the tool with the raw string, and
 * normalises the output. ToolServiceError and an abort of ctx.signal are re-thrown; every other failure is returned
 * as ok:false with the text the model is given, as is a FailedToolOutput (with the tool's own text).
 */
export async function runTool(tool: BaseTool, rawArgs: string, ctx: ToolContext): Promise<ToolRunResult> {
  ctx.signal?.throwIfAborted();
  try {
    validateToolArgs(tool, tool.parseArgs(rawArgs));
    const output =
      tool instanceof BaseToolWithFileAccess ? await tool.callWithFiles(rawArgs, ctx) : await tool.call(rawArgs, ctx);
    ctx.signal?.throwIfAborted();
    const content = normalizeToolOutput(output);
    const files = output instanceof ToolOutputWithFiles && output.files.length ? { files: output.files } : {};
    if (output instanceof FailedToolOutput)
      return {
        ok: false,
        content,
        error: { kind: 'failed', ...pick(tool, output.failure) },
        ...files,
      };
    return { ok: true, content, ...files };
  } catch (err) {
    if (isToolServiceError(err)) throw err;
    if (ctx.signal?.aborted) throw err instanceof Error && err.name === 'AbortError' ? err : ctx.signal.reason;
    if (isErrorNamed<ToolArgumentsError>(err, 'ToolArgumentsError')) return invalidArguments(tool, rawArgs, err);
    return exception(tool, err);
  }
}
