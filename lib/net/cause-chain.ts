// A network failure arrives wrapped (the SDK's error, fetch's TypeError "fetch failed", undici's error): what it was
// is found by walking its causes.

/** The first of `e` and the errors it was caused by (at most `depth` of them) that `match` accepts. */
export function findCause(e: unknown, match: (cause: unknown) => boolean, depth = 6): unknown {
  let cause: unknown = e;
  for (let i = 0; i < depth && cause; i++) {
    if (match(cause)) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
