// fetch (undici) never connects to the ports browsers block (the Fetch standard's "bad ports": 6000, 6666, 10080…):
// it fails with TypeError "fetch failed" caused by "bad port", which reads like a server that is down. A server there
// may well be running; what helps is moving it to another port.
import { findCause } from './cause-chain';

/** The explanation of fetch's refusal of `url`'s port, when `e` (or an error it was caused by) is that refusal. */
export function blockedPortMessage(e: unknown, url: string): string | undefined {
  if (!findCause(e, (c) => c instanceof Error && c.message === 'bad port')) return undefined;
  return `fetch refuses to connect to port ${portOf(url)} (a port browsers block too): run the server on another port.`;
}

function portOf(url: string): string {
  try {
    return new URL(url).port || '(default)';
  } catch {
    return '(unknown)';
  }
}
