// "Create account": allowed for the first account (the admin), then as the admin set it (open, by invite link, or
// closed). The page says which, and why not when it is not allowed.
import type { Metadata } from 'next';
import Link from 'next/link';
import { SignUpForm } from '@/components/account/sign-up-form';
import { link, muted, noticeBox } from '@/components/account/styles';
import { MIN_PASSWORD_LENGTH } from '@/lib/auth/better-auth';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Create account · Agent Studio' };

const TEXT = {
  heading: 'Create account',
  first:
    'This is the first account of this Agent Studio: it becomes the admin, and takes over the conversations and files already here.',
  invited: 'You were invited to this Agent Studio.',
  open: 'Create your account on this Agent Studio.',
  haveAccount: 'Have an account?',
  signIn: 'Sign in',
};

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ invite?: string }> }) {
  const { invite } = await searchParams;
  const state = await (await appContext()).accounts.signUpState(invite);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <h1 className="text-xl font-semibold">{TEXT.heading}</h1>
      {state.allowed ? (
        <>
          <p className={muted}>{state.first ? TEXT.first : invite ? TEXT.invited : TEXT.open}</p>
          <SignUpForm invite={invite} minPassword={MIN_PASSWORD_LENGTH} />
        </>
      ) : (
        <p role="alert" className={noticeBox}>
          {state.reason}
        </p>
      )}
      <p className="text-sm">
        {TEXT.haveAccount}{' '}
        <Link href="/sign-in" className={link}>
          {TEXT.signIn}
        </Link>
      </p>
    </main>
  );
}
