// The signed-in user's settings: their API keys.
import type { Metadata } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { guardPage } from '@/app/actions/guard';
import { ApiKeys } from '@/components/account/api-keys';
import { PageHeader } from '@/components/account/page-header';
import { link, muted } from '@/components/account/styles';
import { appContext } from '@/lib/server/context';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('account');
  return { title: t('title') };
}

export default async function AccountPage() {
  const me = await guardPage();
  const ctx = await appContext();
  const t = await getTranslations('account');
  const accounts = me.via === 'session' || me.via === 'api-key';
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-4 p-6">
      <PageHeader heading={t('heading')} />
      <Link href="/" className={`${link} text-sm`}>
        {t('back')}
      </Link>
      {accounts ? (
        <>
          <p className={muted}>{t('signedInAs', { email: me.email ?? '' })}</p>
          <ApiKeys initial={await ctx.apiKeys.list(me.owner)} />
        </>
      ) : (
        <p className={muted}>{t('noAccounts')}</p>
      )}
    </main>
  );
}
