// A caught error as a server action's failed result. Not a 'use server' module: it exports a plain function.
import type { ActionFailure } from '@/lib/chat/page';
import { errorMessage } from '@/lib/llm/error-report';
import { codedOf } from '@/lib/protocol/errors';
import { statusOf } from '@/lib/server/route';

/** The message with its HTTP status (404 for what is not the caller's, 400 for bad input with the field at fault),
 *  and the code (with what it fills in) when the page can say it in its language. Read from the error's fields, not
 *  its class: the services that threw it may belong to another bundle (lib/protocol/errors.ts isErrorNamed). No
 *  absolute path of the server's reaches the page (an unexpected error's message may hold one). */
export function failure(e: unknown): ActionFailure {
  const error = errorMessage(e);
  const status = statusOf(e, 500);
  const field = (e as { field?: unknown } | null)?.field;
  const at = typeof field === 'string' ? { field } : {};
  const coded = codedOf(e);
  if (!coded) return { ok: false, error, status, ...at };
  return coded.values
    ? { ok: false, error, status, ...at, code: coded.code, values: coded.values }
    : { ok: false, error, status, ...at, code: coded.code };
}
