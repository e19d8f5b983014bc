// Errors of the model layer. `retryable` is decided once, where the error is made.
import type { ErrorCode, ErrorValues } from '../protocol/errors';
import type { ErrorInfo } from '../protocol/events';
import { logError, withoutPaths } from './error-report';

/** An error as events carry it (llm-retry, run-end): plain JSON, the HTTP status and code when it has them, no
 *  absolute path of the server's. */
export function errorInfo(
  err: Error & { status?: number; code?: string; values?: ErrorValues; retryable?: boolean; retryAfterMs?: number },
): ErrorInfo {
  const values = err.values && typeof err.values === 'object' ? plainValues(err.values) : undefined;
  return {
    name: err.name,
    message: withoutPaths(err.message),
    ...(typeof err.status === 'number' ? { status: err.status } : {}),
    ...(err.code ? { code: String(err.code) } : {}),
    ...(err.retryable === true ? { retryable: true as const } : {}),
    ...(typeof err.retryAfterMs === 'number' && err.retryAfterMs >= 0 ? { retryAfterMs: err.retryAfterMs } : {}),
    ...(values ? { values } : {}),
  };
}

function plainValues(values: ErrorValues): ErrorValues | undefined {
  const out: ErrorValues = {};
  for (const [key, value] of Object.entries(values))
    if (typeof value === 'number') out[key] = value;
    else if (typeof value === 'string') out[key] = withoutPaths(value);
  return Object.keys(out).length ? out : undefined;
}

const MODEL_SERVICE_ERROR = Symbol.for('agent-studio.ModelServiceError');

/** Is `e` a ModelServiceError or one of its subclasses, from any bundle: told by a process-wide symbol, not instanceof
 *  (lib/protocol/errors.ts says why). */
export function isModelServiceError(e: unknown): e is ModelServiceError {
  return e instanceof Error && (e as unknown as Record<symbol, unknown>)[MODEL_SERVICE_ERROR] === true;
}

/** Is `e` one of the model layer's or the tools' own errors (ModelServiceError, ToolServiceError, or a subclass):
 *  written to be read (the model server's answer, a tool's own words), so said as it is, though not a refusal. */
export function isServiceError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  // A tool's ToolServiceError (or a subclass) is told by its process-wide mark; tools/ sits above this layer.
  const toolServiceError = (e as unknown as Record<symbol, unknown>)[Symbol.for('agent-studio.ToolServiceError')];
  return isModelServiceError(e) || toolServiceError === true || e.name === 'ToolServiceError';
}

/**
 * The error a failed run ends with. The model layer's and the tools' own errors (isServiceError) are said as they
 * are; anything else is a failure nobody meant, said briefly with an error id, its stack in the server's log under
 * that id.
 */
export function runErrorInfo(e: unknown): ErrorInfo {
  const err = e instanceof Error ? e : new Error(String(e));
  // A child run's failure was reported by the child's own run-end (with its error id, if it was a fault): the parent
  // ends with the same error, said as the child's, code and values kept for the page to say it in its language.
  const child = childFailure(err);
  if (child) return child;
  if (isServiceError(err)) return errorInfo(err);
  const id = logError('a run failed', err);
  const info = errorInfo(err);
  return { ...info, message: `${info.message} (error id ${id})` };
}

/** The error a child run ended with, as its parent ends with it (ChildRunError, lib/agent/child-run.ts: told by name,
 *  as that layer sits above this one). */
function childFailure(err: Error): ErrorInfo | undefined {
  if (err.name !== 'ChildRunError') return undefined;
  const { agent, info } = err as Error & { agent?: unknown; info?: ErrorInfo };
  if (typeof agent !== 'string' || !info) return undefined;
  return { ...info, message: withoutPaths(err.message), agent: info.agent ? `${agent}: ${info.agent}` : agent };
}

export class ModelServiceError extends Error {
  override name = 'ModelServiceError';
  /** Marks this class and its subclasses for isModelServiceError. */
  readonly [MODEL_SERVICE_ERROR] = true;
  readonly status?: number;
  /** One of the shared codes (the page says it in its language); the type holds the model layer to the list. */
  readonly code?: ErrorCode;
  /** What the code's sentence in the page's catalog fills in (`errors.<code>`). */
  readonly values?: ErrorValues;
  readonly retryable: boolean;
  /** From a Retry-After header, when the server sent one. */
  readonly retryAfterMs?: number;

  constructor(
    message: string,
    opts: {
      status?: number;
      code?: ErrorCode;
      values?: ErrorValues;
      retryable?: boolean;
      retryAfterMs?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: opts.cause });
    this.status = opts.status;
    this.code = opts.code;
    this.values = opts.values;
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs;
  }
}

/** The stream ended (connection closed, server died) before the model said why it stopped. */
export class StreamInterruptedError extends ModelServiceError {
  override name = 'StreamInterruptedError';
}

/** Bad input to the model layer itself (Qwen-Agent raises these with code '400'; here status 400 and a shared code,
 *  the message as its detail); never retried. */
export class ModelInputError extends ModelServiceError {
  override name = 'ModelInputError';
  constructor(message: string) {
    super(message, { status: 400, code: 'model-input-invalid', values: { detail: message }, retryable: false });
  }
}
