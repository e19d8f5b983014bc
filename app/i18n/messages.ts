// The catalogs by locale (plain JSON data in lib/i18n/messages).
import type { Locale } from '@/lib/i18n/locales';
import en from '@/lib/i18n/messages/en.json';
import zhCN from '@/lib/i18n/messages/zh-CN.json';

export type Messages = typeof en;

export const MESSAGES: Record<Locale, Messages> = { en, 'zh-CN': zhCN };
