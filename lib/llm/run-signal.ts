// The openai SDK adds an abort listener to the signal of every request and never removes it. A signal that lives
// only as long as one agent run can take those listeners (they die with it); a caller's longer-lived signal cannot,
// and gets a per-call signal in front of it (see OpenAIChatModel.chat). A per-call signal costs an AbortController
// and two listener changes per model call, which is most of what chat() adds to a call on a fast server.
import { setMaxListeners } from 'node:events';

/** A run signal's calls so far, and the listener limit its SDK listeners need. */
interface RunScope {
  calls: number;
  limit: number;
}
const RUN_SCOPE = Symbol('agent-studio.run-scope');
type Branded = AbortSignal & { [RUN_SCOPE]?: RunScope };

/** A controller whose signal lives for one run of at most `maxCalls` model calls. */
export function runAbortController(maxCalls: number): AbortController {
  const controller = new AbortController();
  // Kept on the signal rather than in a WeakSet: a weak collection of one object per run is work for every GC.
  (controller.signal as Branded)[RUN_SCOPE] = { calls: 0, limit: maxCalls + 10 };
  return controller;
}

/** Whether `signal` came from runAbortController, so a model call may hand it to the SDK as it is; counts that call.
 *  One SDK listener per call, plus a few of the run's own waits: Node's default limit (10) covers eight calls, and
 *  only a run that gets further has its limit raised (setting it on every run cost more than a short call's
 *  bookkeeping). */
export function countRunSignalCall(signal: AbortSignal): boolean {
  const scope = (signal as Branded)[RUN_SCOPE];
  if (!scope) return false;
  if (++scope.calls === 9) setMaxListeners(scope.limit, signal);
  return true;
}

type Waiter = () => void;
const waiters = new WeakMap<AbortSignal, Set<Waiter>>();

/** Calls `onAbort` once when `signal` aborts; the returned function forgets it. One listener per signal serves every
 *  waiter: adding and removing a listener on a Node AbortSignal costs more than the short waits it guards. */
export function whenAborted(signal: AbortSignal, onAbort: Waiter): () => void {
  let set = waiters.get(signal);
  if (!set) {
    const all = (set = new Set());
    waiters.set(signal, all);
    signal.addEventListener(
      'abort',
      () => {
        for (const waiter of all) waiter();
        all.clear();
      },
      { once: true },
    );
  }
  set.add(onAbort);
  return () => set.delete(onAbort);
}
