// POST /api/sign-in: the sign-in form (or a JSON client) presents ACCESS_TOKEN once and gets the session cookie.
// Wrong tokens count against the same per-client budget as wrong bearer tokens.
import { sessionCookie, tokenMatches } from './access-token';
import { readBodyText } from './body';
import { authFailures } from './check';
import { clientKey } from './client';
import type { RequestPolicy } from './policy';
import { safeNextPath } from './next-path';
import { problem } from './respond';

const SIGN_IN_BODY_MAX_BYTES = 4096;

function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, ...headers } });
}

export async function handleSignIn(request: Request, policy: RequestPolicy): Promise<Response> {
  const form = !(request.headers.get('content-type') ?? '').includes('application/json');
  const text = await readBodyText(request, SIGN_IN_BODY_MAX_BYTES);
  let token: string | undefined;
  let next = '/';
  if (form) {
    const fields = new URLSearchParams(text);
    token = fields.get('token') ?? undefined;
    next = safeNextPath(fields.get('next'));
  } else {
    try {
      const body = JSON.parse(text) as { token?: unknown };
      token = typeof body.token === 'string' ? body.token : undefined;
    } catch {
      return problem(400, 'Send {"token": "<ACCESS_TOKEN>"} as JSON, or the sign-in form.');
    }
  }
  const back = (error: string) => `/sign-in?error=${error}${next === '/' ? '' : `&next=${encodeURIComponent(next)}`}`;
  if (!policy.accessToken)
    return form ? redirect('/') : problem(404, 'This server has no ACCESS_TOKEN: there is nothing to sign in to.');

  const client = clientKey(request.headers);
  const failures = authFailures();
  const wait = Math.ceil(failures.waitMs(client) / 1000);
  if (wait > 0)
    return form
      ? redirect(back('limited'))
      : problem(429, `Too many wrong access tokens from this client; try again in ${wait} s.`, {
          'retry-after': String(wait),
        });
  if (!token || !tokenMatches(token.trim(), policy.accessToken)) {
    failures.hit(client);
    return form ? redirect(back('wrong')) : problem(401, 'That is not the access token.');
  }
  const secure = policy.publicOrigin?.startsWith('https:') || request.headers.get('x-forwarded-proto') === 'https';
  const cookie = sessionCookie(policy.accessToken, Boolean(secure));
  return form
    ? redirect(next, { 'set-cookie': cookie })
    : Response.json({ ok: true }, { headers: { 'set-cookie': cookie } });
}
