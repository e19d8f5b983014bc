// The request checks and the user's resolution for server actions. Actions bypass proxy.ts (so that Next's own body
// limit cuts an oversize body as it streams), so every exported action starts with `await guardAction()` (or
// guardAdmin()), which returns the Viewer it acts for; test/request-coverage.test.ts fails if one does not. Not an
// action file itself.
import { headers } from 'next/headers';
import { forbidden, redirect, unauthorized } from 'next/navigation';
import { isViewer, limitKey, type Viewer } from '@/lib/auth/viewer';
import { checkRequest } from '@/lib/http/check';
import { requestPolicy } from '@/lib/http/policy';
import { appContext } from '@/lib/server/context';

/**
 * The user the current server action acts for. Refuses the action when its request fails the checks (401 when the
 * access token is missing, 403 otherwise; the reason goes to the server log, the page is shown the refusal) or when
 * nobody is signed in (401; 403 for a disabled account). Called while rendering a page (not an action request,
 * already checked by proxy.ts), a missing sign-in sends the browser to the sign-in page.
 */
export async function guardAction(): Promise<Viewer> {
  const h = await headers();
  const action = h.has('next-action');
  if (action) {
    const refusal = checkRequest({ method: 'POST', headers: h }, requestPolicy(), 'action');
    if (refusal) {
      console.warn(`Refused a server action (${h.get('next-action')}): ${refusal.message}`);
      if (refusal.status === 401) unauthorized();
      forbidden();
    }
  }
  const viewer = await (await appContext()).viewer(h);
  if (isViewer(viewer)) return viewer;
  if (!action && viewer.status === 401) redirect('/sign-in');
  if (action) console.warn(`Refused a server action (${h.get('next-action')}): ${viewer.message}`);
  if (viewer.status === 401) unauthorized();
  forbidden();
}

/** guardAction for what only the admin may do: 403 for anyone else. */
export async function guardAdmin(): Promise<Viewer> {
  const viewer = await guardAction();
  if (!viewer.admin) forbidden();
  return viewer;
}

/** Whom the current action's runs and uploads count against (the user; without accounts, the client's address). */
export async function requestLimitKey(viewer: Viewer): Promise<string> {
  return limitKey(viewer, await headers());
}
