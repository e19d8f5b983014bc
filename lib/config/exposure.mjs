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
 * How the app may start as configured: `problem` (why it must not start at all), else whether accounts are on and,
 * when the exposure itself turns them on, `notice` saying so. Beyond loopback (listening on another address, or
 * answering to PUBLIC_URL / ALLOWED_HOSTS names that are not loopback ones) the app needs a lock: ACCESS_TOKEN (one
 * user) or accounts; without a token, accounts are on, as with AUTH=required. `listenHost` undefined means every
 * interface (what `next start` does without -H).
 */
export function exposureDecision({ listenHost, accessToken, auth, publicUrl, allowedHosts = [] }) {
  const tokenProblem = accessTokenProblem(accessToken);
  if (tokenProblem) return { problem: tokenProblem, accounts: false, notice: null };
  const required = String(auth ?? '')
    .trim()
    .toLowerCase();
  if (required && required !== 'required')
    return { problem: `AUTH must be "required" or unset (got "${auth}").`, accounts: false, notice: null };
  if (accessToken && required)
    return {
      problem: 'Set either ACCESS_TOKEN (one user, signed in with the token) or AUTH=required (accounts), not both.',
      accounts: false,
      notice: null,
    };
  if (accessToken) return { problem: null, accounts: false, notice: null };
  if (required) return { problem: null, accounts: true, notice: null };
  const beyond = exposureReasons({ listenHost, publicUrl, allowedHosts });
  if (!beyond.length) return { problem: null, accounts: false, notice: null };
  return {
    problem: null,
    accounts: true,
    notice:
      `Serving beyond this machine (${beyond.join('; ')}) without ACCESS_TOKEN, so accounts are required (as with ` +
      `AUTH=required): everyone signs in. The first account created becomes the admin; creating it asks for the ` +
      `setup code printed below. For a single user instead, set ACCESS_TOKEN. ${HOW_TO_TOKEN}`,
  };
}

/**
 * Why the app is reachable beyond this machine, in words (empty when it is not): listening on another address, or
 * answering to PUBLIC_URL / ALLOWED_HOSTS names that are not loopback ones (a reverse proxy's requests come from
 * loopback, yet its clients are anyone).
 */
export function exposureReasons({ listenHost, publicUrl, allowedHosts = [] }) {
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
  return beyond;
}
