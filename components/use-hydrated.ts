import { useSyncExternalStore } from 'react';

/** useSyncExternalStore's subscribe for a value that never changes once the page runs (only server → browser). */
export const noSubscription = () => () => {};

/** False in the server's HTML and while React hydrates it, true once React handles the page's events. A button whose
 *  work is a click handler is disabled until then: a click before it would do nothing, and say nothing. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
