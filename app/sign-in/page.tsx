// The sign-in page. With accounts on: an email and a password (or the team's OpenID Connect provider). With
// ACCESS_TOKEN: a plain form for the token (it works without JavaScript) posting to /api/sign-in, which sets the
// session cookie and comes back to the page asked for. Without either there is nothing to sign in to.
import type { Metadata } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PageHeader } from '@/components/account/page-header';
import { SignInForm } from '@/components/account/sign-in-form';
import { alertBox, field, link, muted, primaryButton } from '@/components/account/styles';
import { OIDC_REFUSALS } from '@/lib/auth/better-auth';
import { safeNextPath, withNextPath } from '@/lib/http/next-path';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('signIn');
  return { title: t('title') };
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string; seconds?: string }>;
}) {
  const { next, error, seconds } = await searchParams;
  const t = await getTranslations('signIn');
  const ctx = await appContext();
  if (ctx.mode === 'accounts') {
    const state = await ctx.accounts.signUpState();
    const first = state.allowed && state.first;
    const refused = OIDC_REFUSALS.find((code) => code === error);
    // A refusal of the form posted before the page's script ran (lib/auth/form-post.ts).
    const coded = await getTranslations('authErrors');
    const formRefusal =
      error && !refused
        ? coded.has(error as Parameters<typeof coded>[0])
          ? coded(error as Parameters<typeof coded>[0], { seconds: Number(seconds) || 0 })
          : t('failed', { status: error.replace(/^http-/, '') })
        : undefined;
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
        <PageHeader heading={t('heading')} />
        <p className={muted}>{t('accountsIntro')}</p>
        {refused && (
          <p role="alert" className={alertBox}>
            {t(`oidcErrors.${refused}`)}
          </p>
        )}
        {first && (
          <p className="text-sm">
            {t('firstAccount')}{' '}
            <Link href={withNextPath('/sign-up', next)} className={link}>
              {t('createFirst')}
            </Link>
          </p>
        )}
        <SignInForm
          next={safeNextPath(next)}
          oidcName={ctx.config.auth.oidc?.name ?? null}
          canSignUp={state.allowed && !first}
          refused={formRefusal}
        />
      </main>
    );
  }
  const locked = ctx.mode === 'token';
  const message = error === 'wrong' ? t('wrong') : error === 'limited' ? t('limited') : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <PageHeader heading={t('heading')} />
      {locked ? (
        <>
          <p className={muted}>{t('intro')}</p>
          {message && (
            <p role="alert" className={alertBox}>
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
              className={field}
            />
            <input type="hidden" name="next" value={safeNextPath(next)} />
            <button type="submit" className={primaryButton}>
              {t('submit')}
            </button>
          </form>
        </>
      ) : (
        <p>
          {t('noToken')}{' '}
          <Link href="/" className={link}>
            {t('open')}
          </Link>
        </p>
      )}
    </main>
  );
}
