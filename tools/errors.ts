// Errors of the tool layer. Only ToolServiceError stops a run; everything else a tool throws is turned into text
// the model can read and react to (see run-tool.ts).

import type { ErrorCode, ErrorValues } from '../lib/protocol/errors';

const TOOL_SERVICE_ERROR = Symbol.for('agent-studio.ToolServiceError');

/** Is `e` a ToolServiceError or an instance of a subclass (a tool's own, under its own name), from any bundle: told by
 *  a process-wide symbol, not instanceof (lib/protocol/errors.ts says why). */
export function isToolServiceError(e: unknown): e is ToolServiceError {
  return e instanceof Error && (e as unknown as Record<symbol, unknown>)[TOOL_SERVICE_ERROR] === true;
}

/**
 * The designated fatal tool error (Qwen-Agent's ToolServiceError / DocParserError): runTool re-throws it and the
 * agent run ends with it, instead of handing the model an error message.
 */
export class ToolServiceError extends Error {
  override name = 'ToolServiceError';
  /** Marks this class and its subclasses for isToolServiceError, whatever bundle made them. */
  readonly [TOOL_SERVICE_ERROR] = true;
  readonly code?: string;
  readonly extra?: Record<string, unknown>;

  constructor(message: string, opts: { code?: string; extra?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.code = opts.code;
    this.extra = opts.extra;
  }
}

/** The model's arguments could not be parsed, or do not match the tool's parameters schema. */
export class ToolArgumentsError extends Error {
  override name = 'ToolArgumentsError';
}

/** A tool is declared wrongly (bad name, description or parameters schema); raised at registration/check time. A
 *  registration's refusal carries a code: a plugin's author reads it on the admin's page, in its language. Also a
 *  tool a run asks for that this server does not have or cannot run: then the agent's or the conversation's tool
 *  list is at fault, not the tool's code, and the error says so with `status` 400 (a refusal, lib/protocol/errors.ts
 *  statusOf). */
export class ToolDefinitionError extends Error {
  override name = 'ToolDefinitionError';
  readonly status?: 400;
  readonly code?: ErrorCode;
  readonly values?: ErrorValues;

  constructor(message: string, opts: { cause?: unknown; status?: 400; code?: ErrorCode; values?: ErrorValues } = {}) {
    super(message, 'cause' in opts ? { cause: opts.cause } : undefined);
    if (opts.status) this.status = opts.status;
    if (opts.code) this.code = opts.code;
    if (opts.values) this.values = opts.values;
  }
}
