// Why a fetch failed, from the error code found in its causes (fetch wraps it in TypeError "fetch failed").
import { findCause } from './cause-chain';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the name could not be resolved',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'the connection was reset',
  EPROTO: 'TLS failed',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
};

/** What a failed fetch ran into, in a few words (its error code said plainly, else its message). */
export function networkReason(e: unknown): string {
  const coded = findCause(e, (c) => typeof (c as { code?: unknown }).code === 'string', 4);
  if (coded) {
    const code = (coded as { code: string }).code;
    return NETWORK_CODES[code] ?? code;
  }
  return e instanceof Error ? e.message : String(e);
}
