'use client';
// An upload's refusal as the page says it: by its code in the page's language (the server's English otherwise), with
// the file's name, the accepted types and a byte limit formatted for the page.
import { useLocale } from 'next-intl';
import { useCallback } from 'react';
import { DOCUMENT_TYPE_NAMES, IMAGE_TYPE_NAMES } from '../../lib/documents/accepted-types';
import { formatBytes } from './format';
import { useCodedText, type CodedText } from './server-text';
import { useFormatWords } from './use-format-words';

/** What an upload may be (the catalogs' `unsupported` message lists them), from the server's own list. */
function acceptedTypes(locale: string): { documents: string; images: string } {
  return {
    documents: DOCUMENT_TYPE_NAMES.join(locale.startsWith('zh') ? '、' : ', '),
    images: new Intl.ListFormat(locale, { type: 'disjunction' }).format(IMAGE_TYPE_NAMES),
  };
}

/** Says why the file `name` was refused. */
export function useUploadErrorText(): (name: string, error: CodedText | undefined) => string {
  const coded = useCodedText('documents.errors');
  const f = useFormatWords();
  const locale = useLocale();
  return useCallback(
    (name, error = { message: undefined }) => {
      const limit = error.values?.limit;
      const values = typeof limit === 'number' ? { ...error.values, limit: formatBytes(limit, f) } : error.values;
      return coded({ ...error, values: { name, ...acceptedTypes(locale), ...values } });
    },
    [coded, f, locale],
  );
}
