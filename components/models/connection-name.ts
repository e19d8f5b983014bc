'use client';
// The environment's and the local files' connections are named by the server in English (run-start carries the
// name); the page says them in its language. Names the user gave stay as they are.
import { useTranslations } from 'next-intl';
import { ENV_CONNECTION_ID, ENV_CONNECTION_NAME, LOCAL_CONNECTION_ID, LOCAL_CONNECTION_NAME } from '@/lib/models/ids';

export function useConnectionName(): (name: string, id?: string) => string {
  const t = useTranslations('models');
  return (name, id) => {
    if (id === ENV_CONNECTION_ID || (!id && name === ENV_CONNECTION_NAME)) return t('envConnection');
    if (id === LOCAL_CONNECTION_ID || (!id && name === LOCAL_CONNECTION_NAME)) return t('localConnection');
    return name;
  };
}
