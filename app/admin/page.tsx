// The admin page: users, sign-up and invites, tools for users. Anyone else gets 403 (guardAdmin).
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { guardAdmin } from '@/app/actions/guard';
import { AdminAccess } from '@/components/account/admin-access';
import { AdminUsers } from '@/components/account/admin-users';
import { link, muted } from '@/components/account/styles';
import { INVITE_DAYS } from '@/lib/auth/admin';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Admin · Agent Studio' };

const TEXT = {
  heading: 'Admin',
  back: 'Back to the chat',
  noAccounts:
    'Accounts are off on this server (one user, no sign-in), so there are no users to manage. Set AUTH=required to turn them on; see the README’s Accounts section.',
};

export default async function AdminPage() {
  const me = await guardAdmin();
  const ctx = await appContext();
  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-6 p-6">
      <h1 className="text-xl font-semibold">{TEXT.heading}</h1>
      <Link href="/" className={`${link} text-sm`}>
        {TEXT.back}
      </Link>
      {ctx.mode === 'accounts' ? (
        <>
          <AdminUsers initial={await ctx.admin.users(await headers())} me={me.userId} />
          <AdminAccess
            settings={await ctx.admin.settings()}
            invites={await ctx.admin.invites()}
            inviteDays={INVITE_DAYS}
          />
        </>
      ) : (
        <p className={muted}>{TEXT.noAccounts}</p>
      )}
    </main>
  );
}
