// Shown when a server action is refused for want of a sign-in (app/actions/guard.ts): sign in again, and come back.
import { getTranslations } from 'next-intl/server';
import { PageHeader } from '@/components/account/page-header';
import { SignInAgainLink } from '@/components/account/sign-in-again-link';

export default async function Unauthorized() {
  const t = await getTranslations('unauthorized');
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-3 p-6">
      <PageHeader heading={t('heading')} />
      <p>{t('body')}</p>
      <SignInAgainLink className="text-blue-700 underline dark:text-blue-400">{t('link')}</SignInAgainLink>
    </main>
  );
}
