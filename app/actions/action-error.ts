// A caught error as a server action's failed result. Not a 'use server' module: it exports a plain function.
import type { ActionFailure } from '@/lib/chat/page';
import { CodedError } from '@/lib/protocol/errors';

/** The message, and the code when the error carries one the page can say in its language. */
export function failure(e: unknown): ActionFailure {
  const error = e instanceof Error ? e.message : String(e);
  return e instanceof CodedError ? { ok: false, error, code: e.code } : { ok: false, error };
}
