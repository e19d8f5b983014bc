// What an error tells the page and the model, and what only the server's log gets. A tool that throws, or a run that
// fails on something nobody meant to happen, gives a short message and an error id; the stack (with the checkout's
// absolute paths, `.next/server` chunks and `node_modules` frames) goes to the server's log under that id, where the
// server's owner can find it. No absolute path is repeated to the page or the model in any case.
import { randomBytes } from 'node:crypto';

/** The most of an error's message that is repeated. */
const MAX_MESSAGE = 500;

// An absolute path (POSIX, a file: URL or a Windows drive path), standing alone or after a quote, a bracket or `=`:
// a URL's path (https://host/a/b) is left alone, as the `//` follows a scheme.
const ABSOLUTE_PATH =
  /(^|[\s'"`(\[=,:])(?:file:\/\/)?(?:\/|[A-Za-z]:\\)(?:[^\s'"`()[\]<>,:\\/]+[\\/])+([^\s'"`()[\]<>,:\\/]*)/g;

/** `text` with every absolute path shortened to its last part (`…/report.pdf`). */
export function withoutPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, (_all, before: string, last: string) => `${before}…/${last}`);
}

/** What a caller is told of an error thrown at them (a server action's failure, a /v1 error): its message without the
 *  server's absolute paths (an unexpected error's message may hold one). */
export function errorMessage(e: unknown): string {
  return withoutPaths(e instanceof Error ? e.message : String(e));
}

/** An error's message as the model and the page are told it: without paths, on one line, cut at MAX_MESSAGE. */
export function shortMessage(text: string): string {
  const line = withoutPaths(text)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE)}…` : line;
}

/** A short id that finds the log line: 8 hex digits. */
export function newErrorId(): string {
  return randomBytes(4).toString('hex');
}

/** What a caller (a server action, a route, /v1) is told of a fault, an error nobody meant (one without a 4xx
 *  status of its own, lib/protocol/errors.ts statusOf): that it happened, and the id of the log line that says what.
 *  Its message is not repeated: it may name the server's files, hosts or queries. */
export function faultMessage(id: string): string {
  return `Something went wrong on the server (error id ${id}); its log says what.`;
}

/** Writes what went wrong, with its stack, to the server's log under a new id; returns the id. */
export function logError(what: string, err: unknown): string {
  const id = newErrorId();
  const detail = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  console.error(`[error ${id}] ${what}: ${detail}`);
  return id;
}
