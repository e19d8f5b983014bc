// Shown for a 403 (app/actions/guard.ts): a page or action only the admin may use, a disabled account, or a request
// the checks refused.
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PageHeader } from '@/components/account/page-header';

export default async function Forbidden() {
  const t = await getTranslations('forbidden');
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-3 p-6">
      <PageHeader heading={t('heading')} />
      <p>{t('body')}</p>
      <Link href="/" className="text-blue-700 underline dark:text-blue-400">
        {t('link')}
      </Link>
    </main>
  );
}
