// `fetch` for servers someone named by URL (a model connection, an MCP server): under an address policy, checked
// where the connection is made. Each new socket resolves the host once (resolve-checked.ts), checks every address
// and connects to the checked one; an IP literal is checked as it is. Redirects, keep-alive reconnects and every
// spelling of an address (127.1, 2130706433, [::ffff:127.0.0.1], a name resolving to loopback...) all pass through
// the same hook, so nothing a user typed can reach an address the policy refuses, and a DNS answer that changes after
// a check (rebinding) is never used unchecked.
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import type { AddressPolicy } from './address-policy';
import { resolveChecked, type Resolver } from './resolve-checked';

export type FetchLike = typeof globalThis.fetch;

export interface ConnectPolicy extends AddressPolicy {
  /** Name resolution (tests inject one; default the system resolver). */
  resolve?: Resolver;
}

/** The connector of an undici Agent: resolve and check, then connect to the address checked. */
function checkedConnector(policy: ConnectPolicy): buildConnector.connector {
  const connect = buildConnector({});
  return (options, callback) => {
    resolveChecked(options.hostname, policy).then(
      (address) => connect({ ...options, hostname: address.address }, callback),
      (e: Error) => callback(e, null),
    );
  };
}

const agents = new Map<string, Agent>();

function agentFor(policy: ConnectPolicy): Agent {
  if (policy.resolve) return new Agent({ connect: checkedConnector(policy) });
  const key = JSON.stringify([policy.allowHosts, policy.advice ?? '']);
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ connect: checkedConnector(policy) });
    agents.set(key, agent);
  }
  return agent;
}

/**
 * A fetch that connects only where `policy` allows. With `allowPrivate` (an admin's or the environment's connection,
 * or ALLOW_PRIVATE_MODEL_URLS=1) every address is allowed and this is the global fetch.
 */
export function guardedFetch(policy: ConnectPolicy): FetchLike {
  if (policy.allowPrivate) return globalThis.fetch;
  const dispatcher = agentFor(policy);
  return ((input: Parameters<FetchLike>[0], init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as FetchLike;
}
