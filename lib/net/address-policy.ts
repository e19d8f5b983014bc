// Which IP addresses a server-side fetch may connect to. Everything that is not the public internet is refused
// unless the configuration allows it: the server must not become a proxy into its own network.
import { BlockList, isIP } from 'node:net';
import { findCause } from './cause-chain';

const BLOCKED: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'ipv4', 'documentation'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['198.51.100.0', 24, 'ipv4', 'documentation'],
  ['203.0.113.0', 24, 'ipv4', 'documentation'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['64:ff9b:1::', 48, 'ipv6', 'local NAT64'],
  ['2001:db8::', 32, 'ipv6', 'documentation'],
  ['fc00::', 7, 'ipv6', 'unique-local (includes fd00:ec2::254 metadata)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local'], // deprecated (RFC 3879), yet some networks still route it internally
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const lists = BLOCKED.map(([net, prefix, family, label]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, family);
  return { list, family, label };
});

/** The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible, NAT64, 6to4), if any. */
function embeddedIPv4(ip: string): string | undefined {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const words = expandIPv6(lower);
  if (!words) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => words.slice(0, n).every((w) => w === 0);
  if (zeros(5) && words[5] === 0xffff) return v4(words[6]!, words[7]!); // ::ffff:a.b.c.d
  if (zeros(4) && words[4] === 0xffff && words[5] === 0) return v4(words[6]!, words[7]!); // ::ffff:0:a.b.c.d (SIIT)
  if (zeros(6) && words[6] !== 0) return v4(words[6]!, words[7]!); // ::a.b.c.d (IPv4-compatible; :: and ::1 excepted)
  if (words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0))
    return v4(words[6]!, words[7]!); // 64:ff9b::/96
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!); // 6to4
  return undefined;
}

/** The eight words of an IPv6 address in any spelling: compressed or not, with a dotted IPv4 tail or not
 *  (0:0:0:0:0:ffff:127.0.0.1 is ::ffff:7f00:1). */
function expandIPv6(ip: string): number[] | undefined {
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  const text = dotted
    ? `${dotted[1]}${((Number(dotted[2]) << 8) | Number(dotted[3])).toString(16)}:${((Number(dotted[4]) << 8) | Number(dotted[5])).toString(16)}`
    : ip;
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) =>
    s ? s.split(':').map((w) => (/^[0-9a-f]{1,4}$/.test(w) ? parseInt(w, 16) : NaN)) : [];
  const h = part(head);
  const t = part(tail);
  if (tail === undefined && h.length !== 8) return undefined;
  const words = [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
  return words.length === 8 && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : undefined;
}

/** Why `ip` must not be fetched by default ("loopback", "private", …), or undefined for a public address. */
export function blockedAddressReason(ip: string): string | undefined {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const v4 = embeddedIPv4(bare);
    if (v4) {
      const inner = blockedAddressReason(v4);
      return inner ? `${inner} (IPv4 inside IPv6)` : undefined;
    }
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return lists.find((l) => l.family === type && l.list.check(bare, type))?.label;
}

export interface AddressPolicy {
  /** Allow every address (WEB_FETCH_ALLOW_PRIVATE=1; for model connections: an admin's, or ALLOW_PRIVATE_MODEL_URLS=1). */
  allowPrivate: boolean;
  /** Host names or IP addresses allowed although they are (or resolve to) non-public addresses. */
  allowHosts: readonly string[];
  /** What a refusal tells the user to do (default: the web tools' settings). */
  advice?: string;
  /** Leave the address a name resolved to out of a refusal (it would tell a user how an internal name resolves). */
  hideAddress?: boolean;
}

const WEB_ADVICE =
  'Server-side fetches reach only public addresses unless WEB_FETCH_ALLOW_PRIVATE=1 or WEB_FETCH_ALLOW_HOSTS lists the host.';

/** Throws a readable error when connecting to `ip` for `host` is not allowed by `policy`. */
export function assertAddressAllowed(host: string, ip: string, policy: AddressPolicy): void {
  if (policy.allowPrivate) return;
  const reason = blockedAddressReason(ip);
  if (!reason) return;
  const allowed = policy.allowHosts.map((h) => h.toLowerCase().replace(/^\[|\]$/g, ''));
  const bareHost = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (allowed.includes(bareHost) || allowed.includes(ip.toLowerCase())) return;
  const shown = bareHost === ip || policy.hideAddress ? host : `${host} (${ip})`;
  throw new BlockedAddressError(`Refused to fetch ${shown}: ${reason} address. ${policy.advice ?? WEB_ADVICE}`, shown);
}

/** Matched by `name` or `code`, never by class: a refusal made in one bundle is caught in another. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  readonly code = 'EADDRBLOCKED';
  constructor(
    message: string,
    /** The host refused, as the message names it (with the address it resolved to, unless that is hidden). */
    readonly host?: string,
  ) {
    super(message);
  }
}

/** Is `e`, or an error it was caused by, a refusal of the address policy? Returns that refusal. */
export function blockedAddressIn(e: unknown): Error | undefined {
  return findCause(
    e,
    (c) =>
      c instanceof Error && (c.name === 'BlockedAddressError' || (c as { code?: unknown }).code === 'EADDRBLOCKED'),
  ) as Error | undefined;
}
