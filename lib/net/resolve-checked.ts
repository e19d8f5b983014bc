// A host name resolved once and every address it gave checked against the address policy: what both the web tools'
// fetch (safe-fetch.ts) and the model and MCP connections' fetch (guarded-fetch.ts) connect to. The caller connects
// to the address returned, never to the name again, so a DNS answer that changes between check and use (rebinding)
// changes nothing.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { assertAddressAllowed, type AddressPolicy } from './address-policy';

export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** `host` without IPv6 brackets or a zone id's brackets: what the resolver and the policy take. */
export function bareHost(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}

/**
 * Resolves `host` (an IP literal is its own answer) and checks every address: a name that resolves to one public and
 * one private address is refused. Throws the resolver's error (with its code: ENOTFOUND...) or a BlockedAddressError.
 */
export async function resolveChecked(
  host: string,
  policy: AddressPolicy & { resolve?: Resolver },
): Promise<LookupAddress> {
  const bare = bareHost(host);
  const family = isIP(bare);
  const addresses = family ? [{ address: bare, family }] : await (policy.resolve ?? systemResolve)(bare);
  if (!addresses.length) throw Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' });
  for (const a of addresses) assertAddressAllowed(bare, a.address, policy);
  return addresses[0]!;
}
