// The sign-in page of an app locked with ACCESS_TOKEN: a plain form (it works without JavaScript) posting to
// /api/sign-in, which sets the session cookie and comes back to the page asked for.
import type { Metadata } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { loadConfig } from '@/lib/config';
import { safeNextPath } from '@/lib/http/sign-in';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('signIn');
  return { title: t('title') };
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string }>;
}) {
  const { next, error } = await searchParams;
  const t = await getTranslations('signIn');
  const locked = Boolean(loadConfig().http.accessToken);
  const message = error === 'wrong' ? t('wrong') : error === 'limited' ? t('limited') : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <h1 className="text-xl font-semibold">{t('heading')}</h1>
      {locked ? (
        <>
          <p className="text-sm text-neutral-600 dark:text-neutral-400">{t('intro')}</p>
          {message && (
            <p
              role="alert"
              className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
            >
              {message}
            </p>
          )}
          <form method="post" action="/api/sign-in" className="flex flex-col gap-3">
            <label htmlFor="token" className="text-sm font-medium">
              {t('label')}
            </label>
            <input
              id="token"
              name="token"
              type="password"
              required
              autoFocus
              autoComplete="current-password"
              className="rounded border border-neutral-300 bg-white px-3 py-2 dark:border-neutral-700 dark:bg-neutral-900"
            />
            <input type="hidden" name="next" value={safeNextPath(next)} />
            <button
              type="submit"
              className="rounded bg-neutral-900 px-3 py-2 text-white hover:bg-neutral-700 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300"
            >
              {t('submit')}
            </button>
          </form>
        </>
      ) : (
        <p>
          {t('noToken')}{' '}
          <Link href="/" className="text-blue-700 underline dark:text-blue-400">
            {t('open')}
          </Link>
        </p>
      )}
    </main>
  );
}
