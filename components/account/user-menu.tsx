'use client';
// The header's user menu when accounts are on: who is signed in, their API keys, the admin page (for the admin),
// and Sign out.
import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';
import { useHydrated } from '../use-hydrated';
import { authRequest } from './auth-request';

const item = 'block w-full rounded px-3 py-1.5 text-left text-sm hover:bg-neutral-100 dark:hover:bg-neutral-800';

export function UserMenu({ account }: { account: { email: string; name: string; admin: boolean } }) {
  const t = useTranslations('userMenu');
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent | KeyboardEvent) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  async function signOut() {
    const answer = await authRequest('sign-out');
    // A full load, not a client navigation: nothing of this user's page state outlives the sign-out.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    if (answer.ok) window.location.assign('/sign-in');
    else setError(t('signOutFailed'));
  }

  return (
    <div ref={box} className="relative min-w-0">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="user-menu"
        aria-label={t('menu', { email: account.email })}
        disabled={!hydrated}
        onClick={() => setOpen((v) => !v)}
        className="block w-full max-w-48 truncate rounded-lg px-2 py-1 text-sm hover:bg-neutral-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:hover:bg-neutral-800"
      >
        {account.name || account.email}
      </button>
      {open && (
        <div
          id="user-menu"
          className="absolute right-0 z-30 mt-1 w-56 rounded-lg border border-neutral-200 bg-white p-1 shadow-lg dark:border-neutral-800 dark:bg-neutral-900"
        >
          <p className="truncate px-3 py-1.5 text-xs text-neutral-500">{account.email}</p>
          <a href="/account" className={item}>
            {t('apiKeys')}
          </a>
          {account.admin && (
            <a href="/admin" className={item}>
              {t('admin')}
            </a>
          )}
          <button type="button" onClick={() => void signOut()} className={item}>
            {t('signOut')}
          </button>
          {error && (
            <p role="alert" className="px-3 py-1 text-xs text-red-700 dark:text-red-300">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
