// The signed-in user's settings: their API keys.
import type { Metadata } from 'next';
import Link from 'next/link';
import { guardAction } from '@/app/actions/guard';
import { ApiKeys } from '@/components/account/api-keys';
import { link, muted } from '@/components/account/styles';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Account · Agent Studio' };

const TEXT = {
  heading: 'Account',
  signedInAs: (email: string) => `Signed in as ${email}.`,
  noAccounts: 'Accounts are off on this server, so there are no API keys: see the README’s Accounts section.',
  back: 'Back to the chat',
};

export default async function AccountPage() {
  const me = await guardAction();
  const ctx = await appContext();
  const accounts = me.via === 'session' || me.via === 'api-key';
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-4 p-6">
      <h1 className="text-xl font-semibold">{TEXT.heading}</h1>
      <Link href="/" className={`${link} text-sm`}>
        {TEXT.back}
      </Link>
      {accounts ? (
        <>
          <p className={muted}>{TEXT.signedInAs(me.email ?? '')}</p>
          <ApiKeys initial={await ctx.apiKeys.list(me.owner)} />
        </>
      ) : (
        <p className={muted}>{TEXT.noAccounts}</p>
      )}
    </main>
  );
}
