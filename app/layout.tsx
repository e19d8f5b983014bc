import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { NextIntlClientProvider } from 'next-intl';
import { getLocale, getTranslations } from 'next-intl/server';
import { ImageHostsProvider } from '@/components/chat/answer-image';
import { appConfig } from '@/lib/server/app-config';
import { guardPage } from './actions/guard';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('app');
  return { title: t('name'), description: t('description') };
}
export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

// Applies the saved (or the system's) theme before the first paint, so a dark page never flashes white.
const themeScript = `try{var t=localStorage.getItem('theme');if(t!=='light'&&t!=='dark')t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';if(t==='dark')document.documentElement.classList.add('dark')}catch(e){}`;

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const h = await headers();
  // A request naming a server action bypasses proxy.ts, even when it is a GET that renders the page.
  if (h.has('next-action')) await guardPage();
  // The page's CSP nonce (proxy.ts): without it the browser refuses the inline script.
  const nonce = h.get('x-nonce') ?? undefined;
  const locale = await getLocale();
  return (
    <html lang={locale} suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen bg-white text-neutral-900 antialiased dark:bg-neutral-950 dark:text-neutral-100">
        {/* The catalog of the request's locale reaches the client components from here. */}
        <NextIntlClientProvider>
          {/* IMAGE_HOSTS: whose images answers show without a click (the CSP's img-src lists the same). */}
          <ImageHostsProvider hosts={appConfig().http.imageHosts}>{children}</ImageHostsProvider>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
