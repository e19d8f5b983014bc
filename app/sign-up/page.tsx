// "Create account": allowed for the first account (the admin; with the setup code from the server's log when the
// server is reachable beyond its machine), then as the admin set it (open, by invite link, or closed). The page says
// which, and why not when it is not allowed. Once made, the account opens the page asked for before (`?next=`, carried
// from the sign-in page), as signing in does.
import type { Metadata } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PageHeader } from '@/components/account/page-header';
import { SignUpForm } from '@/components/account/sign-up-form';
import { link, muted, noticeBox } from '@/components/account/styles';
import { MIN_PASSWORD_LENGTH } from '@/lib/auth/better-auth';
import { safeNextPath, withNextPath } from '@/lib/http/next-path';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('signUp');
  return { title: t('title') };
}

type Params = { invite?: string; next?: string; error?: string; seconds?: string };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Params> }) {
  const { invite, next, error, seconds } = await searchParams;
  const t = await getTranslations('signUp');
  const refusal = await getTranslations('authErrors');
  const signIn = await getTranslations('signIn');
  const state = await (await appContext()).accounts.signUpState(invite);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <PageHeader heading={t('heading')} />
      {state.allowed ? (
        <>
          <p className={muted}>
            {t(state.first ? (state.setupCode ? 'firstSetupCode' : 'first') : invite ? 'invited' : 'open')}
          </p>
          <SignUpForm
            invite={invite}
            next={safeNextPath(next)}
            minPassword={MIN_PASSWORD_LENGTH}
            setupCode={Boolean(state.setupCode)}
            refused={error ? refusedText(error, seconds, refusal, signIn) : undefined}
          />
        </>
      ) : (
        <p role="alert" className={noticeBox}>
          {refusal(state.code)}
        </p>
      )}
      <p className="text-sm">
        {t('haveAccount')}{' '}
        <Link href={withNextPath('/sign-in', next)} className={link}>
          {t('signIn')}
        </Link>
      </p>
    </main>
  );
}

/** The refusal a form post came back with (lib/auth/form-post.ts), in the page's language. */
function refusedText(
  code: string,
  seconds: string | undefined,
  refusal: Awaited<ReturnType<typeof getTranslations<'authErrors'>>>,
  signIn: Awaited<ReturnType<typeof getTranslations<'signIn'>>>,
): string {
  // Codes arrive in the address: `has` guards one this page does not know.
  const key = code as Parameters<typeof refusal>[0];
  if (refusal.has(key)) return refusal(key, { min: MIN_PASSWORD_LENGTH, seconds: Number(seconds) || 0 });
  const status = /^http-(\d+)$/.exec(code)?.[1];
  return status ? signIn('failed', { status }) : signIn('unreachable');
}
