// The account pages' calls to /api/auth (lib/auth/http.ts): JSON in, JSON out, errors as {error: {message, code?}}.
import { useTranslations } from 'next-intl';
import { useCallback } from 'react';

export interface AuthAnswer<T> {
  ok: boolean;
  /** 0 when the server could not be reached. */
  status: number;
  /** The server's reason when not ok (absent when it gave none), with its code when the page can say it. */
  message?: string;
  code?: string;
  values?: Record<string, number>;
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
  type Failure = { error?: { message?: string; code?: string; values?: Record<string, number> } };
  const data = (await res.json().catch(() => undefined)) as (T & Failure) | undefined;
  if (res.ok) return { ok: true, status: res.status, data };
  return { ok: false, status: res.status, ...data?.error };
}

/** A failed answer as text: the catalog's words for its code, else the server's reason, else what happened. */
export function useAuthText(): (answer: AuthAnswer<unknown>) => string {
  const t = useTranslations('signIn');
  const coded = useTranslations('authErrors');
  return useCallback(
    (answer) => {
      // Codes arrive as data: `has` guards one this page does not know.
      const key = answer.code as Parameters<typeof coded>[0] | undefined;
      if (key && coded.has(key)) return coded(key, answer.values);
      return answer.message ?? (answer.status ? t('failed', { status: answer.status }) : t('unreachable'));
    },
    [t, coded],
  );
}
