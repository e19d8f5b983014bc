'use client';
import { useEffect } from 'react';

/** While `unsaved` holds, leaving the page (reload, closing the tab, another address) asks the browser's "Leave
 *  site?" first: what was typed is not thrown away without a word. */
export function useLeaveGuard(unsaved: boolean): void {
  useEffect(() => {
    if (!unsaved) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = ''; // older browsers ask only when it is set
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved]);
}
