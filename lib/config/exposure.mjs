// What stays on this machine and what exposes the app beyond it. Plain JavaScript because scripts/start.mjs (plain
// Node, before any build), the configuration and the server (lib/http, instrumentation.ts) must refuse exactly the same
// things.

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** A host name or address without brackets, port or trailing dot, lowercased. */
export function bareHost(name) {
  return String(name)
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** The name part of a Host header value ("example.com:3000", "[::1]:3000", "::1"), bare and lowercased. */
export function hostNameOf(value) {
  const v = String(value).trim();
  if (v.startsWith('[')) return bareHost(v.slice(0, v.indexOf(']') + 1 || undefined));
  const colons = v.split(':').length - 1;
  return bareHost(colons === 1 ? v.slice(0, v.indexOf(':')) : v);
}

/** Is this host name or address (as in a Host header or HOST) reachable only from this machine? */
export function isLoopbackName(name) {
  const host = bareHost(name);
  return host === 'localhost' || isLoopbackAddress(host);
}

/** Is this socket address a loopback one (127/8, ::1, or 127/8 mapped into IPv6)? */
export function isLoopbackAddress(address) {
  const ip = bareHost(address).replace(/%.*$/, '');
  if (IPV4_LOOPBACK.test(ip)) return true;
  if (ip === '::1' || ip === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  return Boolean(mapped && IPV4_LOOPBACK.test(mapped[1]));
}

export const MIN_ACCESS_TOKEN_LENGTH = 16;

/** Why ACCESS_TOKEN cannot be used, or null when it is unset or good enough. */
export function accessTokenProblem(token) {
  if (!token) return null;
  if (token.length < MIN_ACCESS_TOKEN_LENGTH || /\s/.test(token))
    return `ACCESS_TOKEN must be at least ${MIN_ACCESS_TOKEN_LENGTH} characters with no spaces (it is the only lock on the app). ${HOW_TO_TOKEN}`;
  return null;
}

export const HOW_TO_TOKEN =
  "Make one with: export ACCESS_TOKEN=$(node -e \"console.log(require('crypto').randomBytes(24).toString('base64url'))\")";

/**
 * Why the app must not start as configured, or null. Beyond loopback (listening on another address, or answering to
 * PUBLIC_URL / ALLOWED_HOSTS names that are not loopback ones) needs ACCESS_TOKEN until accounts exist.
 * `listenHost` undefined means every interface (what `next start` does without -H).
 */
export function exposureProblem({ listenHost, accessToken, publicUrl, allowedHosts = [] }) {
  const tokenProblem = accessTokenProblem(accessToken);
  if (tokenProblem) return tokenProblem;
  if (accessToken) return null;
  const beyond = [];
  if (listenHost === undefined || listenHost === '') beyond.push('listening on every interface');
  else if (!isLoopbackName(listenHost)) beyond.push(`listening on ${listenHost}`);
  if (publicUrl) {
    let host = publicUrl;
    try {
      host = new URL(publicUrl).hostname;
    } catch {
      // reported as it is
    }
    if (!isLoopbackName(host)) beyond.push(`PUBLIC_URL=${publicUrl}`);
  }
  const names = allowedHosts.filter((h) => !isLoopbackName(h));
  if (names.length) beyond.push(`ALLOWED_HOSTS=${names.join(',')}`);
  if (!beyond.length) return null;
  return (
    `Refusing to serve beyond this machine (${beyond.join('; ')}) without ACCESS_TOKEN: anyone who reached it ` +
    `could use your model key, run code and read the uploaded files. Either keep the default (HOST=127.0.0.1, ` +
    `no PUBLIC_URL or ALLOWED_HOSTS), or set a token and sign in with it on the page (or send ` +
    `"Authorization: Bearer <token>"). ${HOW_TO_TOKEN}`
  );
}
