'use server';
// The header's language switch (wiring only): remembers the choice in a cookie. Setting a cookie in a server action
// makes Next render the page again, now in that language.
import { cookies } from 'next/headers';
import { isLocale, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_S } from '@/lib/i18n/locales';
import { guardAction } from './guard';

export async function setLocale(locale: string): Promise<void> {
  await guardAction('setLocale');
  if (!isLocale(locale)) throw new Error(`Unsupported language: ${locale}`);
  (await cookies()).set(LOCALE_COOKIE, locale, { path: '/', maxAge: LOCALE_COOKIE_MAX_AGE_S, sameSite: 'lax' });
}
