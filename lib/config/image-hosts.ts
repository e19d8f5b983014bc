// IMAGE_HOSTS: the hosts whose images an answer may show without a click. Everything else an answer (model output,
// which is untrusted) points an image at stays unloaded until the user asks: loading it would send the URL, and
// whatever a prompt injection put into it, to that host. The page's CSP (img-src) and the answer's image component
// read the same list, so neither lets through what the other refuses. Plain functions: the page runs them too.

/** One entry: a host name (`images.example.com`) or every subdomain of one (`*.example.com`), with an optional port. */
const ENTRY = /^(\*\.)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** IMAGE_HOSTS (comma- or space-separated) as checked entries, lowercase; throws on anything else, so that nothing but
 *  a host can reach the CSP header. */
export function parseImageHosts(raw: string | undefined): string[] {
  const entries = (raw ?? '')
    .split(/[\s,]+/)
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const e of entries)
    if (!ENTRY.test(e))
      throw new Error(
        `IMAGE_HOSTS lists host names such as images.example.com or *.example.com (optionally :port), got "${e}"`,
      );
  return [...new Set(entries)];
}

/** Does `url` (absolute, http or https) point at a host of the list? Matches as CSP host sources do: `*.x` is any
 *  subdomain of x (not x itself); no port in the entry means the scheme's default port. */
export function imageHostAllowed(url: URL, hosts: readonly string[]): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return hosts.some((entry) => {
    const [name = '', port] = entry.split(':');
    if ((port ?? '') !== url.port) return false;
    return name.startsWith('*.') ? host.endsWith(name.slice(1)) && host.length > name.length - 1 : host === name;
  });
}
