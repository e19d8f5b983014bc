// What is not the caller's reads exactly as what does not exist: one error for both, which the HTTP layer answers
// with 404 (an answer that differed would tell that someone else has the object). Coded, so the page can say it in
// its language.
import { CodedError, type ErrorCode, type ErrorValues } from '../protocol/errors';

export class NotFoundError extends CodedError {
  override name = 'NotFoundError';
  constructor(message: string, code: ErrorCode = 'not-found', values?: ErrorValues) {
    super(code, message, values, 404);
  }
}

/** A new run of a conversation while one of it is running (a message sent from another tab, window or instance):
 *  HTTP 409. A conversation answers one message at a time, so that each answer sees the ones before it (and two runs
 *  never share its work directory). The store refuses it in the transaction that would start the run (runs.ts), so
 *  instances sharing the database cannot both start one. */
export class ConversationBusyError extends CodedError {
  override name = 'ConversationBusyError';
  constructor() {
    super(
      'conversation-busy',
      'This conversation is still answering an earlier message (one sent from another tab or window, say). Wait for that answer to end (or stop it), then send again.',
      undefined,
      409,
    );
  }
}

/** The database did not take a write because another program held its lock for longer than the store waits
 *  (SQLite's SQLITE_BUSY: a `sqlite3` shell in a transaction, a backup tool): HTTP 503, try again later. */
export class StoreBusyError extends Error {
  override name = 'StoreBusyError';
  readonly status = 503;
  readonly code = 'SQLITE_BUSY';
  constructor(waitedMs: number, options?: { cause?: unknown }) {
    super(
      `The database is locked by another program (SQLITE_BUSY) and was not freed within ${Math.round(waitedMs / 1000)} s.`,
      options,
    );
  }
}

/** Is this the database or its disk out of space (SQLite's SQLITE_FULL, PostgreSQL's disk_full, the file system's
 *  ENOSPC)? */
export function isDiskFull(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC';
}

/** What a caller is told when a write of theirs found the server's disk full (a server action, an agent import). */
export const DISK_FULL_MESSAGE = "The server's disk is full: nothing was saved. Try again once space is freed.";

/** Is this a write the database refused for now, which the same write may pass later: a full disk, a lock held by
 *  another program, a failed disk write (SQLite's SQLITE_FULL, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR_*)? */
export function isPassingStoreFailure(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return isDiskFull(e) || (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|IOERR)/.test(code));
}

/** Why a run stopped when its log could not be written, in words for the person who reads its answer. */
export function runStoreFailure(e: unknown): string {
  if (isDiskFull(e))
    return "The server's disk is full: this answer could not be stored any further and stopped here. What it shows was kept; send the message again once space is freed.";
  if ((e as { code?: unknown } | null)?.code === 'SQLITE_BUSY')
    return `${e instanceof Error ? e.message : 'The database is locked by another program.'} This answer stopped here; what it shows was kept. Send the message again once the other program is done.`;
  return e instanceof Error ? e.message : String(e);
}
