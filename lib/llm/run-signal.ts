// The openai SDK adds an abort listener to the signal of every request and never removes it. A signal that lives
// only as long as one agent run can take those listeners (they die with it); a caller's longer-lived signal cannot,
// and gets a per-call signal in front of it (see OpenAIChatModel.chat). A per-call signal costs an AbortController
// and two listener changes per model call, which is most of what chat() adds to a call on a fast server.
import { setMaxListeners } from 'node:events';

const RUN_SCOPED = Symbol('agent-studio.run-scoped');
type Branded = AbortSignal & { [RUN_SCOPED]?: true };

/** A controller whose signal lives for one run of at most `maxCalls` model calls. */
export function runAbortController(maxCalls: number): AbortController {
  const controller = new AbortController();
  // One SDK listener per call, plus a few of the run's own (tools, sleeps): no warning for a run within its limit.
  // Node's default limit (10) already covers a run of up to eight calls.
  if (maxCalls > 8) setMaxListeners(maxCalls + 10, controller.signal);
  // A mark on the signal rather than a WeakSet: a weak collection of one object per run is work for every GC.
  (controller.signal as Branded)[RUN_SCOPED] = true;
  return controller;
}

/** Whether `signal` came from runAbortController, so a model call may hand it to the SDK as it is. */
export function isRunScoped(signal: AbortSignal): boolean {
  return (signal as Branded)[RUN_SCOPED] === true;
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
