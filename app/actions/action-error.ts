// A caught error as a server action's failed result. Not a 'use server' module: it exports a plain function.
import type { ActionFailure } from '@/lib/chat/page';
import { errorMessage, faultMessage, logError } from '@/lib/llm/error-report';
import { isServiceError } from '@/lib/llm/errors';
import { codedOf } from '@/lib/protocol/errors';
import { statusOf } from '@/lib/server/route';
import { DISK_FULL_MESSAGE, isDiskFull } from '@/lib/store/errors';

/** A refusal as its message with its HTTP status (404 for what is not the caller's, 400 for bad input with the field
 *  at fault), and the code (with what it fills in) when the page can say it in its language. Read from the error's
 *  fields, not its class: the services that threw it may belong to another bundle (lib/protocol/errors.ts
 *  isErrorNamed). A fault (no 4xx status of its own, and not the model server's or a tool's own words) is logged with
 *  its stack under an error id, and the page is told only that something went wrong, with that id, in its language. No
 *  absolute path of the server's reaches the page. */
export function failure(e: unknown): ActionFailure {
  // The disk full is said in words (507, as an upload's: the server cannot store it), not as SQLite's "database or
  // disk is full" nor as a fault to look up; the log still says where, for the server's owner.
  if (isDiskFull(e)) {
    logError('a server action found the disk full', e);
    return { ok: false, error: DISK_FULL_MESSAGE, status: 507, code: 'disk-full' };
  }
  const status = statusOf(e, 500);
  // A coded error is written to be read, a 5xx one too (a server that cannot be reached): said as it is.
  if (status >= 500 && !isServiceError(e) && !codedOf(e)) {
    const id = logError('a server action failed', e);
    return { ok: false, error: faultMessage(id), status: 500, code: 'server-fault', values: { id } };
  }
  const error = errorMessage(e);
  const field = (e as { field?: unknown } | null)?.field;
  const at = typeof field === 'string' ? { field } : {};
  const coded = codedOf(e);
  if (!coded) return { ok: false, error, status, ...at };
  return coded.values
    ? { ok: false, error, status, ...at, code: coded.code, values: coded.values }
    : { ok: false, error, status, ...at, code: coded.code };
}
