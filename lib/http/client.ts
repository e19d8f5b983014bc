// Who a request counts against for rate limits without a signed-in user: the address it came from (sign-in attempts,
// and everything when accounts are off). A signed-in user counts as themselves wherever they connect from
// (lib/auth/viewer.ts limitKey).
import { peerOf, type HeaderBag } from './peer';

export function clientKey(headers: HeaderBag): string {
  return `peer:${peerOf(headers) ?? 'unknown'}`;
}
