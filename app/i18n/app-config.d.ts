// Types next-intl checks every translation key against: a key the English catalog lacks fails the type-check.
import type { Locale } from '@/lib/i18n/locales';
import type { Messages } from './messages';

declare module 'next-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
