// A caught error as a server action's failed result. Not a 'use server' module: it exports a plain function.
import type { ActionFailure } from '@/lib/chat/page';
import { withoutPaths } from '@/lib/llm/error-report';
import { CodedError } from '@/lib/protocol/errors';
import { statusOf } from '@/lib/server/route';

/** The message with its HTTP status (404 for what is not the caller's, 400 for bad input with the field at fault),
 *  and the code (with what it fills in) when the page can say it in its language. No absolute path of the server's
 *  reaches the page (an unexpected error's message may hold one). */
export function failure(e: unknown): ActionFailure {
  const error = withoutPaths(e instanceof Error ? e.message : String(e));
  const status = statusOf(e, 500);
  const field = (e as { field?: unknown } | null)?.field;
  if (typeof field === 'string') return { ok: false, error, status, field };
  if (!(e instanceof CodedError)) return { ok: false, error, status };
  const coded = { ok: false as const, error, status, code: e.code };
  return e.values ? { ...coded, values: e.values } : coded;
}
