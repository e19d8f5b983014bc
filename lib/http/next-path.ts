// Where the browser goes back to after signing in: the page a signed-out visitor asked for, carried to the sign-in
// page as `?next=`. Pure (no server modules): the sign-in-again link on the page builds it too.

const HERE = 'http://app.invalid';

/** The request header proxy.ts sets on each page request: the path and query asked for, for the page's guard
 *  (app/actions/guard.ts), which cannot read the request's URL. */
export const REQUESTED_PATH_HEADER = 'x-requested-path';

/** A path on this app to return to after signing in; anything else (another site, "//host") becomes "/". Read as a
 *  browser reads it (it drops tabs and newlines, takes a backslash for "/", resolves "." and ".."): "/<tab>/evil.example"
 *  and "/..//evil.example" are "//evil.example", another site. */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  let url: URL;
  try {
    url = new URL(raw, HERE);
  } catch {
    return '/';
  }
  if (url.origin !== HERE || url.pathname.startsWith('//')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** An account page (`/sign-in`, `/sign-up`, with its own query or none) asked to come back to `requested` (a path and
 *  query on this app) once signed in; the start page needs no `next`. */
export function withNextPath(page: string, requested: string | null | undefined): string {
  const next = safeNextPath(requested);
  if (next === '/') return page;
  return `${page}${page.includes('?') ? '&' : '?'}next=${encodeURIComponent(next)}`;
}

/** The sign-in page, asked to come back to `requested` (a path and query on this app) once signed in. */
export function signInPath(requested: string | null | undefined): string {
  return withNextPath('/sign-in', requested);
}
