// The admin page: users, sign-up and invites, tools for users. Anyone else gets 403 (guardPage('admin')).
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { guardPage } from '@/app/actions/guard';
import { AdminAccess } from '@/components/account/admin-access';
import { AdminIntegrations } from '@/components/account/admin-integrations';
import { AdminUsers } from '@/components/account/admin-users';
import { PageHeader } from '@/components/account/page-header';
import { link, muted } from '@/components/account/styles';
import { INVITE_DAYS } from '@/lib/auth/admin';
import { appContext } from '@/lib/server/context';
import { integrationsStatus } from '@/lib/server/integrations';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin');
  return { title: t('title') };
}

export default async function AdminPage() {
  const me = await guardPage('admin');
  const ctx = await appContext();
  const t = await getTranslations('admin');
  return (
    <main className="mx-auto flex max-w-4xl flex-col gap-6 p-6">
      <PageHeader heading={t('heading')} />
      <Link href="/" className={`${link} text-sm`}>
        {t('back')}
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
        <p className={muted}>{t('noAccounts')}</p>
      )}
      <AdminIntegrations status={await integrationsStatus(ctx, me)} webSearch={await ctx.webSearch.view()} />
    </main>
  );
}
