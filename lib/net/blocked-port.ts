// fetch (undici) never connects to the ports browsers block (the Fetch standard's "bad ports": 6000, 6666, 10080…):
// it fails with TypeError "fetch failed" caused by "bad port", which reads like a server that is down. A server there
// may well be running; what helps is moving it to another port.

/** The explanation of fetch's refusal of `url`'s port, when `e` (or an error it was caused by) is that refusal. */
export function blockedPortMessage(e: unknown, url: string): string | undefined {
  let cause: unknown = e;
  for (let i = 0; i < 6 && cause; i++) {
    if (cause instanceof Error && cause.message === 'bad port') {
      const port = portOf(url);
      return `fetch refuses to connect to port ${port} (a port browsers block too): run the server on another port.`;
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

function portOf(url: string): string {
  try {
    return new URL(url).port || '(default)';
  } catch {
    return '(unknown)';
  }
}
