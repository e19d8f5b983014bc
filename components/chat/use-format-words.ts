'use client';
import { useLocale, useTranslations } from 'next-intl';
import { useMemo } from 'react';
import type { FormatWords } from './format';

/** The page language's words and locale for the helpers in format.ts. */
export function useFormatWords(): FormatWords {
  const t = useTranslations('format');
  const locale = useLocale();
  return useMemo(() => ({ t, locale }), [t, locale]);
}
