// The request checks and the one access check (lib/server/access.ts) for server actions and pages. Actions bypass
// proxy.ts (so that Next's own body limit cuts an oversize body as it streams), so every exported action starts with
// `await guardAction('<its own name>')`, which applies the rule its name declares (lib/server/access-rules.ts) and
// returns the Viewer it acts for; test/request-coverage.test.ts fails if one does not. Pages call guardPage (or an
// action, which does). Not an action file itself.
import { headers } from 'next/headers';
import { forbidden, redirect, unauthorized } from 'next/navigation';
import { limitKey, type Viewer } from '@/lib/auth/viewer';
import { checkRequest } from '@/lib/http/check';
import { REQUESTED_PATH_HEADER, signInPath } from '@/lib/http/next-path';
import { requestPolicy } from '@/lib/http/policy';
import { authorize, isRefusal, type AccessRule } from '@/lib/server/access';
import { ACTION_RULES, PAGE_RULES, type ActionEntry } from '@/lib/server/access-rules';
import { appConfig } from '@/lib/server/app-config';
import { appContext } from '@/lib/server/context';

async function guard(name: string, rule: AccessRule): Promise<Viewer> {
  const h = await headers();
  const action = h.has('next-action');
  if (action) {
    const refusal = checkRequest({ method: 'POST', headers: h }, requestPolicy(appConfig().http), 'action');
    if (refusal) {
      console.warn(`Refused a server action (${name}): ${refusal.message}`);
      if (refusal.status === 401) unauthorized();
      forbidden();
    }
  }
  const who = authorize(rule, await (await appContext()).viewer(h));
  if (!isRefusal(who)) return who;
  // Back to the page asked for once signed in (its path and query, as proxy.ts read them from the request).
  if (!action && who.status === 401) redirect(signInPath(h.get(REQUESTED_PATH_HEADER)));
  if (action) console.warn(`Refused a server action (${name}): ${who.message}`);
  if (who.status === 401) unauthorized();
  forbidden();
}

/**
 * The user the server action `name` acts for, as its rule allows. Refuses the action when its request fails the
 * checks (401 when the access token is missing, 403 otherwise; the reason goes to the server log, the page is shown
 * the refusal), when nobody is signed in (401; 403 for a disabled account), or when the rule does not let this user
 * or key in (403). Called while rendering a page (not an action request, already checked by proxy.ts), a missing
 * sign-in sends the browser to the sign-in page, which comes back to this page once signed in.
 */
export async function guardAction(name: ActionEntry): Promise<Viewer> {
  return guard(name, ACTION_RULES[name]);
}

/** The user a page renders for: a signed-in user (`admin`: the admin; 403 for anyone else); never an API key. */
export async function guardPage(who: keyof typeof PAGE_RULES = 'user'): Promise<Viewer> {
  return guard(`the ${who} page`, PAGE_RULES[who]);
}

/** Whom the current action's runs and uploads count against (the user; without accounts, the client's address). */
export async function requestLimitKey(viewer: Viewer): Promise<string> {
  return limitKey(viewer, await headers());
}
