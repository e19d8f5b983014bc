// The account forms as plain HTML forms: "Create account" and "Sign in" post to their JSON endpoints, so they work
// before the page's scripts have run (a slow connection, a page under load) or without them. A form post is handed
// to the same handler as the JSON the page's script sends, with all its fields (what the form holds, the handler
// checks), and its answer becomes a redirect the browser follows: into the app once signed in, else back to the
// form's page, which says why from the code in its address.
import { readBodyText } from '../http/body';
import { problem } from '../http/respond';
import { safeNextPath } from '../http/next-path';

const BODY_MAX_BYTES = 8 * 1024;

/** The endpoints that take a form post, and where the browser goes back to when they refuse. */
const FORMS: Record<string, { page: string; keep: string[] }> = {
  '/api/auth/sign-up/email': { page: '/sign-up', keep: ['invite', 'next'] },
  '/api/auth/sign-in/email': { page: '/sign-in', keep: ['next'] },
};

function redirect(location: string, from?: Response): Response {
  const out = new Response(null, { status: 303, headers: { location } });
  for (const cookie of from?.headers.getSetCookie() ?? []) out.headers.append('set-cookie', cookie);
  return out;
}

/** A form post to one of the account endpoints, answered through `handle` (the JSON endpoint); undefined for any
 *  other request (the caller handles it as it is). */
export async function accountFormPost(
  request: Request,
  handle: (request: Request) => Promise<Response>,
): Promise<Response | undefined> {
  const url = new URL(request.url);
  const form = FORMS[url.pathname.replace(/\/+$/, '')];
  const type = request.headers.get('content-type') ?? '';
  if (!form || request.method !== 'POST' || !type.startsWith('application/x-www-form-urlencoded')) return undefined;

  let fields: URLSearchParams;
  try {
    fields = new URLSearchParams(await readBodyText(request, BODY_MAX_BYTES));
  } catch {
    return problem(413, 'The form is too large.');
  }
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  const answer = await handle(
    new Request(request.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(Object.fromEntries(fields)),
    }),
  );
  if (answer.ok) return redirect(safeNextPath(fields.get('next')), answer);

  // Back to the form, which says why (the code and the numbers it fills in) and keeps what the address carried.
  const body = (await answer.json().catch(() => ({}))) as {
    error?: { code?: string; values?: Record<string, number> };
  };
  const back = new URLSearchParams();
  for (const name of form.keep) {
    const value = fields.get(name);
    if (value) back.set(name, value);
  }
  back.set('error', body.error?.code ?? `http-${answer.status}`);
  for (const [name, value] of Object.entries(body.error?.values ?? {})) back.set(name, String(value));
  return redirect(`${form.page}?${back}`, answer);
}
