// At most `limit` pieces of work at once, in order of the list. The first failure stops the rest: no new work
// starts, `stop` aborts the work in flight, and the failure is what the pool throws.

export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  stop: AbortController,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  let failure: unknown;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (e) {
        if (failed) continue; // stopped because another failed
        failed = true;
        failure = e;
        stop.abort(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed) throw failure;
  return results;
}
