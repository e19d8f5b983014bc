// Errors the server actions raise themselves, with a code the page says in its own language (its catalog's `errors`
// namespace); the English message stays for everything else that reads it. Not a 'use server' module: it exports a
// class and a plain function.

export const ERROR_CODES = ['conversation-gone', 'empty-title', 'mcp-not-editable', 'run-gone', 'runs-differ'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class ActionError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ActionError';
  }
}

export type ActionFailure = { ok: false; error: string; code?: ErrorCode };

/** A caught error as an action's failed result: the message, and the code when it is one of ours. */
export function failure(e: unknown): ActionFailure {
  const error = e instanceof Error ? e.message : String(e);
  return e instanceof ActionError ? { ok: false, error, code: e.code } : { ok: false, error };
}
