// The page's languages and how one is picked for a request. Plain TypeScript (no framework), so the agent core and
// scripts can use the locale codes too; the next-intl wiring is in app/i18n.

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The language the server writes its own messages in (errors, notices): the page shows them as they are in this
 *  language, and says them in its catalog's words, by their code, in any other. */
export const SERVER_LOCALE: Locale = 'en';

/** The cookie that remembers the language picked in the header (one year). */
export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The cookie as the browser writes it (`document.cookie`) when a language is picked. */
export function localeCookie(locale: Locale): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE_S}; SameSite=Lax`;
}

/** Each language by its own name: the same words whatever language the page is in. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The supported locale a language tag asks for: any Chinese (zh, zh-CN, zh-Hans, zh-TW…) reads the Simplified
 *  Chinese page, any English the English one; anything else nothing. */
function matchTag(tag: string): Locale | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'zh') return 'zh-CN';
  if (primary === 'en') return 'en';
  return undefined;
}

/** The best supported locale for an Accept-Language header (q-values honoured, ties in the header's order). */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && Number.isFinite(entry.q) && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = matchTag(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** The page's language: the one picked in the header (the cookie) when it is supported, else the browser's. */
export function requestLocale(cookie: string | undefined, acceptLanguage: string | null | undefined): Locale {
  return isLocale(cookie) ? cookie : negotiateLocale(acceptLanguage);
}

/** The language of the agent's prompts (Qwen-Agent's `lang`) for a page language. */
export function agentLang(locale: Locale): 'en' | 'zh' {
  return locale === 'zh-CN' ? 'zh' : 'en';
}
