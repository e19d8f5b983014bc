// next-intl's request configuration ("without i18n routing"): the locale comes from the language cookie, else the
// browser's Accept-Language; the address has no locale prefix.
import { getRequestConfig } from 'next-intl/server';
import { currentLocale } from './locale';
import { MESSAGES } from './messages';

export default getRequestConfig(async () => {
  const locale = await currentLocale();
  return { locale, messages: MESSAGES[locale] };
});
