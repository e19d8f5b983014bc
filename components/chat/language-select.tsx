'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { setLocale } from '@/app/actions/locale';
import { LOCALE_NAMES, LOCALES } from '@/lib/i18n/locales';

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
      disabled={switching}
      onChange={(e) => {
        const next = e.target.value;
        startSwitch(async () => {
          await setLocale(next);
          router.refresh();
        });
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
