// The sign-in page. With accounts on: an email and a password (or the team's OpenID Connect provider). With
// ACCESS_TOKEN: a plain form for the token (it works without JavaScript) posting to /api/sign-in, which sets the
// session cookie and comes back to the page asked for. Without either there is nothing to sign in to.
import type { Metadata } from 'next';
import Link from 'next/link';
import { SignInForm } from '@/components/account/sign-in-form';
import { alertBox, field, link, muted, primaryButton } from '@/components/account/styles';
import { safeNextPath } from '@/lib/http/sign-in';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in · Agent Studio' };

const TEXT = {
  heading: 'Sign in to Agent Studio',
  accountsIntro: 'Sign in with your account on this Agent Studio.',
  firstAccount: 'No account exists yet: the first one created is the admin.',
  intro:
    'This app is locked with an access token (ACCESS_TOKEN on the server). Enter it once: this browser stays signed in for 30 days.',
  label: 'Access token',
  submit: 'Sign in',
  wrong: 'That is not the access token. Check it and try again.',
  limited: 'Too many wrong tokens from here. Wait a minute, then try again.',
  noToken: 'This server has neither accounts nor an access token, so there is nothing to sign in to.',
  open: 'Open the app',
  createFirst: 'Create the admin account',
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; error?: string }>;
}) {
  const { next, error } = await searchParams;
  const ctx = await appContext();
  if (ctx.mode === 'accounts') {
    const state = await ctx.accounts.signUpState();
    const first = state.allowed && state.first;
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
        <h1 className="text-xl font-semibold">{TEXT.heading}</h1>
        <p className={muted}>{TEXT.accountsIntro}</p>
        {first && (
          <p className="text-sm">
            {TEXT.firstAccount}{' '}
            <Link href="/sign-up" className={link}>
              {TEXT.createFirst}
            </Link>
          </p>
        )}
        <SignInForm
          next={safeNextPath(next)}
          oidcName={ctx.config.auth.oidc?.name ?? null}
          canSignUp={state.allowed && !first}
        />
      </main>
    );
  }
  const locked = ctx.mode === 'token';
  const message = error === 'wrong' ? TEXT.wrong : error === 'limited' ? TEXT.limited : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <h1 className="text-xl font-semibold">{TEXT.heading}</h1>
      {locked ? (
        <>
          <p className={muted}>{TEXT.intro}</p>
          {message && (
            <p role="alert" className={alertBox}>
              {message}
            </p>
          )}
          <form method="post" action="/api/sign-in" className="flex flex-col gap-3">
            <label htmlFor="token" className="text-sm font-medium">
              {TEXT.label}
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
              {TEXT.submit}
            </button>
          </form>
        </>
      ) : (
        <p>
          {TEXT.noToken}{' '}
          <Link href="/" className={link}>
            {TEXT.open}
          </Link>
        </p>
      )}
    </main>
  );
}
