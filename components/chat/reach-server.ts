// A server action whose request got no answer (the server down or restarting, the network gone) rejects instead of
// resolving with a failure: read as one, the page says so and takes back what it drew for the request, as it does
// when the server refuses.
import type { ActionFailure, ActionResult } from '@/lib/chat/page';

/** The status of a failure the server never answered (what XMLHttpRequest reports for it too). */
export const UNANSWERED = 0;

export async function reachServer<T>(call: () => Promise<ActionResult<T>>): Promise<ActionResult<T>> {
  try {
    return await call();
  } catch (e) {
    return unanswered(e);
  }
}

export function unanswered(e: unknown): ActionFailure {
  return { ok: false, status: UNANSWERED, error: e instanceof Error ? e.message : String(e) };
}

/** An error Next raised on purpose (the session gone: unauthorized(), forbidden(), a redirect), which it answers by
 *  showing its own page: not a request left unanswered. */
export function nextHttpError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && typeof (e as { digest?: unknown }).digest === 'string';
}
