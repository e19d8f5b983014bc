// The request's locale: the language cookie, else the browser's Accept-Language. next-intl's request configuration
// uses it, and so do server actions that only need the locale (reading it through next-intl also builds the
// request's whole message configuration, about a millisecond before a message's model call).
import { cookies, headers } from 'next/headers';
import { LOCALE_COOKIE, requestLocale } from '@/lib/i18n/locales';

export async function currentLocale() {
  const [cookieStore, headerList] = await Promise.all([cookies(), headers()]);
  return requestLocale(cookieStore.get(LOCALE_COOKIE)?.value, headerList.get('accept-language'));
}
