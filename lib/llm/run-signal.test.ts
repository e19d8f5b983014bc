import { describe, expect, it } from 'vitest';
import { isRunScoped, runAbortController, whenAborted } from './run-signal';

describe('run signals', () => {
  it('tells a run signal from any other', () => {
    expect(isRunScoped(runAbortController(20).signal)).toBe(true);
    expect(isRunScoped(new AbortController().signal)).toBe(false);
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
