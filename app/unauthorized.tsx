// Shown when a server action is refused for want of a sign-in (app/actions/guard.ts): sign in again.
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PageHeader } from '@/components/account/page-header';

export default async function Unauthorized() {
  const t = await getTranslations('unauthorized');
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-3 p-6">
      <PageHeader heading={t('heading')} />
      <p>{t('body')}</p>
      <Link href="/sign-in" className="text-blue-700 underline dark:text-blue-400">
        {t('link')}
      </Link>
    </main>
  );
}
