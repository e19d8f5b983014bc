// The openai SDK adds an abort listener to the signal of every request and never removes it. A signal that lives
// only as long as one agent run can take those listeners (they die with it); a caller's longer-lived signal cannot,
// and gets a per-call signal in front of it (see OpenAIChatModel.chat). A per-call signal costs an AbortController
// and two listener changes per model call, which is most of what chat() adds to a call on a fast server.
import { setMaxListeners } from 'node:events';

const runScoped = new WeakSet<AbortSignal>();

/** A controller whose signal lives for one run of at most `maxCalls` model calls. */
export function runAbortController(maxCalls: number): AbortController {
  const controller = new AbortController();
  // One SDK listener per call, plus a few of the run's own (tools, sleeps): no warning for a run within its limit.
  setMaxListeners(maxCalls + 10, controller.signal);
  runScoped.add(controller.signal);
  return controller;
}

/** Whether `signal` came from runAbortController, so a model call may hand it to the SDK as it is. */
export function isRunScoped(signal: AbortSignal): boolean {
  return runScoped.has(signal);
}
