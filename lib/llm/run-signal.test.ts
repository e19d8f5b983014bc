import { getMaxListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { countRunSignalCall, runAbortController, whenAborted } from './run-signal';

describe('run signals', () => {
  it('tells a run signal from any other', () => {
    expect(countRunSignalCall(runAbortController(20).signal)).toBe(true);
    expect(countRunSignalCall(new AbortController().signal)).toBe(false);
  });

  it('raises the listener limit once a run has more calls than the default limit leaves room for', () => {
    const { signal } = runAbortController(20);
    for (let call = 1; call <= 8; call++) countRunSignalCall(signal);
    expect(getMaxListeners(signal)).toBe(10);
    countRunSignalCall(signal);
    expect(getMaxListeners(signal)).toBe(30);
  });

  it('calls each waiter still waiting once when the signal aborts, and none it was told to forget', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    whenAborted(controller.signal, () => calls.push('a'));
    const forgetB = whenAborted(controller.signal, () => calls.push('b'));
    whenAborted(controller.signal, () => calls.push('c'));
    forgetB();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(['a', 'c']);
  });
});
