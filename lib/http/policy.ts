// What the request checks compare against, from the configuration: the host names the app answers to, its public
// origin, the access token, and whether accounts are on.
import { networkInterfaces } from 'node:os';
import type { AppConfig } from '../config';
import { bareHost, isLoopbackName } from '../config/exposure.mjs';

export interface RequestPolicy {
  accessToken?: string;
  /** Accounts are on (AUTH=required): anyone may reach the app, and everything but signing in needs a user. */
  accounts: boolean;
  /** Host names beyond loopback ones that are accepted: PUBLIC_URL's, ALLOWED_HOSTS and this machine's own
   *  addresses; all of them only with a lock (an access token, or accounts); without one the app serves this machine
   *  only. */
  extraHosts: ReadonlySet<string>;
  /** Configured names beyond loopback that are refused because there is no lock (for the message). */
  hostsNeedingToken: ReadonlySet<string>;
  publicOrigin?: string;
}

let own: { at: number; addresses: string[] } | undefined;

/** This machine's interface addresses (`http://<lan address>:3000` is a name the app is served under), read at most
 *  once a minute: the policy is built for every request. */
function ownAddresses(now = Date.now()): string[] {
  if (!own || now - own.at > 60_000) {
    const addresses = Object.values(networkInterfaces())
      .flat()
      .flatMap((i) => (i ? [bareHost(i.address.replace(/%.*$/, ''))] : []));
    own = { at: now, addresses };
  }
  return own.addresses;
}

export function requestPolicy(config: AppConfig['http']): RequestPolicy {
  const configured = config.allowedHosts.filter((h) => !isLoopbackName(h));
  if (!config.accessToken && !config.accounts)
    return {
      accounts: false,
      extraHosts: new Set(),
      hostsNeedingToken: new Set(configured),
      publicOrigin: config.publicOrigin,
    };
  return {
    accessToken: config.accessToken,
    accounts: config.accounts,
    extraHosts: new Set([...configured, ...ownAddresses()]),
    hostsNeedingToken: new Set(),
    publicOrigin: config.publicOrigin,
  };
}
