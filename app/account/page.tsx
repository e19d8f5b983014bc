// The signed-in user's settings: their API keys.
import type { Metadata } from 'next';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { guardPage } from '@/app/actions/guard';
import { ApiKeys } from '@/components/account/api-keys';
import { link, muted } from '@/components/account/styles';
import { LanguageSelect } from '@/components/chat/language-select';
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
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h1 className="min-w-0 flex-1 text-xl font-semibold">{t('heading')}</h1>
        <LanguageSelect />
      </header>
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
