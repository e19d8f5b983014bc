'use client';
import { useSyncExternalStore } from 'react';

/** Tailwind's `md` breakpoint, below which the chat page's menu and settings cover the screen. */
export const PHONE = '(max-width: 47.999rem)';

function subscribe(onChange: () => void): () => void {
  const media = matchMedia(PHONE);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** Whether the page is as narrow as a phone's (false while rendered on the server). */
export function usePhone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => matchMedia(PHONE).matches,
    () => false,
  );
}
