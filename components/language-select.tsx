'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { isLocale, LOCALE_NAMES, LOCALES, localeCookie } from '@/lib/i18n/locales';

/** The header's language switch: remembered in a cookie; the page is rendered again in the new language, keeping the
 *  open conversation, the draft and a run being streamed. */
export function LanguageSelect() {
  const t = useTranslations('header');
  const locale = useLocale();
  const router = useRouter();
  const [switching, startSwitch] = useTransition();
  return (
    <select
      aria-label={t('language')}
      value={locale}
      // Busy, not disabled: a disabled control drops the keyboard's focus to the page while the page is redrawn.
      aria-busy={switching}
      onChange={(e) => {
        const next = e.target.value;
        if (!isLocale(next)) return;
        // The browser writes the cookie itself, not a server action: the sign-in pages switch the language before
        // anyone is signed in (a server action there would be refused for want of a sign-in or the access token).
        document.cookie = localeCookie(next);
        startSwitch(() => router.refresh());
      }}
      className="shrink-0 rounded-lg border border-neutral-300 bg-white px-1.5 py-1 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-neutral-700 dark:bg-neutral-900"
    >
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LOCALE_NAMES[l]}
        </option>
      ))}
    </select>
  );
}
