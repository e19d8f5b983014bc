'use client';
// Messages the server wrote (in English) that carry a code: shown as they are on an English page, and in the
// catalog's words for their code in any other language. A message without a code (a model server's error, a
// parser's detail) is shown as it came.
import { useLocale, useTranslations } from 'next-intl';
import { useCallback } from 'react';
import type { ActionFailure } from '../../lib/chat/page';
import { SERVER_LOCALE } from '../../lib/i18n/locales';
import { UNANSWERED } from './reach-server';

export interface CodedText {
  /** The server's words; absent for the page's own errors, which always come from the catalog. */
  message?: string;
  code?: string;
  values?: Record<string, string | number>;
}

/** A server action's failure as text to say; one the server never answered is the page's own. */
export function failureText(failure: ActionFailure): CodedText {
  if (failure.status === UNANSWERED) return { code: 'server-unreachable', values: { error: failure.error } };
  return { message: failure.error, code: failure.code, values: failure.values };
}

/** A function saying a coded message in the page's language, from the catalog namespace that holds its codes. */
export function useCodedText(namespace: 'errors' | 'documents.errors'): (text: CodedText) => string {
  const t = useTranslations(namespace);
  const locale = useLocale();
  return useCallback(
    ({ message, code, values }: CodedText) => {
      // Codes arrive as data: the catalogs hold every code (test/i18n/catalogs.test.ts); `has` guards a newer one.
      const key = code as Parameters<typeof t>[0] | undefined;
      if (key && t.has(key) && (locale !== SERVER_LOCALE || !message)) return t(key, values);
      return message ?? code ?? '';
    },
    [t, locale],
  );
}
