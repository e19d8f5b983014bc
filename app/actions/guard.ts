// The request checks for server actions (lib/http/check.ts). Actions bypass proxy.ts (so that Next's own body
// limit cuts an oversize body as it streams), so every exported action starts with `await guardAction()`;
// test/security/coverage.test.ts fails if one does not. Not an action file itself.
import { headers } from 'next/headers';
import { forbidden, unauthorized } from 'next/navigation';
import { checkRequest } from '@/lib/http/check';
import { requestPolicy } from '@/lib/http/policy';

/**
 * Refuses the current server action when its request fails the checks: 401 when the access token is missing,
 * 403 otherwise (the reason goes to the server log; the page is shown the refusal). A call made while rendering a
 * page (not an action request) was checked by proxy.ts already.
 */
export async function guardAction(): Promise<void> {
  const h = await headers();
  if (!h.has('next-action')) return;
  const refusal = checkRequest({ method: 'POST', headers: h }, requestPolicy(), 'action');
  if (!refusal) return;
  console.warn(`Refused a server action (${h.get('next-action')}): ${refusal.message}`);
  if (refusal.status === 401) unauthorized();
  forbidden();
}
