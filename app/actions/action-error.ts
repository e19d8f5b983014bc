// A caught error as a server action's failed result. Not a 'use server' module: it exports a plain function.
import type { ActionFailure } from '@/lib/chat/page';
import { CodedError } from '@/lib/protocol/errors';

/** The message, and the code (with what it fills in) when the page can say it in its language. */
export function failure(e: unknown): ActionFailure {
  const error = e instanceof Error ? e.message : String(e);
  if (!(e instanceof CodedError)) return { ok: false, error };
  return e.values ? { ok: false, error, code: e.code, values: e.values } : { ok: false, error, code: e.code };
}
