// next-intl's request configuration ("without i18n routing"): the locale comes from the language cookie, else the
// browser's Accept-Language; the address has no locale prefix.
import { cookies, headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { LOCALE_COOKIE, requestLocale } from '@/lib/i18n/locales';
import { MESSAGES } from './messages';

export default getRequestConfig(async () => {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  const locale = requestLocale(cookieStore.get(LOCALE_COOKIE)?.value, headerList.get('accept-language'));
  return { locale, messages: MESSAGES[locale] };
});
