'use client';
// The unauthorized page's link to the sign-in page, which comes back to the page that was open (its address stays
// the page's while Next shows the unauthorized page in its place). Until the script runs: the plain sign-in page.
import { useSyncExternalStore } from 'react';
import { signInPath } from '@/lib/http/next-path';
import { noSubscription } from '../use-hydrated';

export function SignInAgainLink({ className, children }: { className: string; children: string }) {
  const href = useSyncExternalStore(
    noSubscription,
    () => signInPath(window.location.pathname + window.location.search),
    () => '/sign-in',
  );
  return (
    <a href={href} className={className}>
      {children}
    </a>
  );
}
