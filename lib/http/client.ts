// Who a request counts against for rate limits. Today: the address it came from. When accounts exist, the signed-in
// user replaces it (one key per user, wherever they connect from); ACCESS_TOKEN stays the single-user way in.
import { peerOf, type HeaderBag } from './peer';

export function clientKey(headers: HeaderBag): string {
  return `peer:${peerOf(headers) ?? 'unknown'}`;
}
