import { useCallback, useRef, useState } from 'react';

/**
 * One request at a time for a button that makes something (an invite, a key): a second click, or Enter pressed again,
 * while the first request runs does nothing, so a double click makes one. `busy` is true meanwhile, for the button to
 * say so (`aria-disabled`: it keeps the keyboard's focus, where `disabled` would drop it). In a form's `action` the
 * state waits for the action to end (React runs it as a transition): its button reads `useFormStatus` instead.
 */
export function useSingleFlight(): [busy: boolean, run: (work: () => Promise<unknown>) => Promise<void>] {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<unknown>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return [busy, run];
}
