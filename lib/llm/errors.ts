// Errors of the model layer. `retryable` is decided once, where the error is made.
import type { ErrorInfo } from '../protocol/events';

/** An error as events carry it (llm-retry, run-end): plain JSON, the HTTP status and code when it has them. */
export function errorInfo(err: Error & { status?: number; code?: string }): ErrorInfo {
  return {
    name: err.name,
    message: err.message,
    ...(typeof err.status === 'number' ? { status: err.status } : {}),
    ...(err.code ? { code: String(err.code) } : {}),
  };
}

const MODEL_SERVICE_ERROR = Symbol.for('agent-studio.ModelServiceError');

/** Is `e` a ModelServiceError or one of its subclasses, from any bundle: told by a process-wide symbol, not instanceof
 *  (lib/protocol/errors.ts says why). */
export function isModelServiceError(e: unknown): e is ModelServiceError {
  return e instanceof Error && (e as unknown as Record<symbol, unknown>)[MODEL_SERVICE_ERROR] === true;
}

export class ModelServiceError extends Error {
  override name = 'ModelServiceError';
  /** Marks this class and its subclasses for isModelServiceError. */
  readonly [MODEL_SERVICE_ERROR] = true;
  readonly status?: number;
  readonly code?: string;
  readonly retryable: boolean;
  /** From a Retry-After header, when the server sent one. */
  readonly retryAfterMs?: number;

  constructor(
    message: string,
    opts: { status?: number; code?: string; retryable?: boolean; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.status = opts.status;
    this.code = opts.code;
    this.retryable = opts.retryable ?? false;
    this.retryAfterMs = opts.retryAfterMs;
  }
}

/** The stream ended (connection closed, server died) before the model said why it stopped. */
export class StreamInterruptedError extends ModelServiceError {
  override name = 'StreamInterruptedError';
}

/** Bad input to the model layer itself (Qwen-Agent raises these with code '400'); never retried. */
export class ModelInputError extends ModelServiceError {
  override name = 'ModelInputError';
  constructor(message: string) {
    super(message, { status: 400, code: '400', retryable: false });
  }
}
