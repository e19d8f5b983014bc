'use client';
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import { DEFAULT_TITLE } from '@/lib/store/types';

/** A conversation's title as the page shows it: the store's placeholder for an untitled one reads "New chat" in the
 *  page's language. */
export function useConversationTitle(): (title: string) => string {
  const t = useTranslations('header');
  return useCallback((title: string) => (title === DEFAULT_TITLE ? t('newChat') : title), [t]);
}
