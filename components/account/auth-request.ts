// The account pages' calls to /api/auth (lib/auth/http.ts): JSON in, JSON out, errors as {error: {message}}.
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';

export interface AuthAnswer<T> {
  ok: boolean;
  /** 0 when the server could not be reached. */
  status: number;
  /** The server's reason when not ok (absent when it gave none). */
  message?: string;
  data?: T;
}

export async function authRequest<T = unknown>(path: string, body: unknown = {}): Promise<AuthAnswer<T>> {
  let res: Response;
  try {
    res = await fetch(`/api/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0 };
  }
  const data = (await res.json().catch(() => undefined)) as (T & { error?: { message?: string } }) | undefined;
  if (res.ok) return { ok: true, status: res.status, data };
  return { ok: false, status: res.status, message: data?.error?.message };
}

/** A failed answer as text: the server's reason, else the catalog's words for what happened. */
export function useAuthText(): (answer: AuthAnswer<unknown>) => string {
  const t = useTranslations('signIn');
  return useCallback(
    (answer) => answer.message ?? (answer.status ? t('failed', { status: answer.status }) : t('unreachable')),
    [t],
  );
}
