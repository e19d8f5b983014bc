// Test helpers: read server-rendered markup the way a screen reader would (buttons, their names and states).
import { NextIntlClientProvider } from 'next-intl';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Locale } from '../../lib/i18n/locales';
import en from '../../lib/i18n/messages/en.json';
import zhCN from '../../lib/i18n/messages/zh-CN.json';

export interface RenderedButton {
  name: string;
  attrs: Record<string, string>;
  inner: string;
}

/** The element's markup, in the page's catalog for `locale` (English unless said). */
export function render(el: ReactElement, locale: Locale = 'en'): string {
  const messages = locale === 'en' ? en : zhCN;
  return renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={messages} timeZone="UTC">
      {el}
    </NextIntlClientProvider>,
  );
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Visible text: tags dropped (aria-hidden parts too), entities decoded, whitespace collapsed. */
export function textOf(html: string): string {
  return decode(html.replace(/<[^>]*aria-hidden="true"[^>]*>[\s\S]*?<\/(svg|span)>/g, '').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

export function attrsOf(openTag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of openTag.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)) attrs[m[1] ?? ''] = decode(m[2] ?? '');
  return attrs;
}

export function buttons(html: string): RenderedButton[] {
  return Array.from(html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g), (m) => ({
    attrs: attrsOf(m[1] ?? ''),
    inner: m[2] ?? '',
    name: textOf(m[2] ?? ''),
  }));
}

/** The element with this id: its opening tag's attributes and everything up to the end of the markup. */
export function elementById(html: string, id: string): { attrs: Record<string, string>; rest: string } | undefined {
  const m = new RegExp(`<(\\w+)\\b([^>]*\\bid="${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*)>`).exec(html);
  if (!m) return undefined;
  return { attrs: attrsOf(m[2] ?? ''), rest: html.slice(m.index + m[0].length) };
}
