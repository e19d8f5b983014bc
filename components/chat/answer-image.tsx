'use client';
// An image an answer or a tool result points at. Model output is untrusted: an image URL on another site, loaded by
// itself, would send that site whatever a prompt injection put into the URL (a secret from the conversation, say)
// the moment the answer renders. So only images of the app itself (uploads, tool images), data: and blob: URLs and
// the hosts of IMAGE_HOSTS load; any other shows a button naming the host. The page's CSP (img-src) refuses the same
// hosts, so the click cannot load it in the page either: it opens the image in a new tab, without the page's
// address (noreferrer) or a handle back to it (noopener), where the user sees the full URL and decides.
import { useTranslations } from 'next-intl';
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { imageHostAllowed } from '../../lib/config/image-hosts';
import { noSubscription } from '../use-hydrated';

const ImageHostsContext = createContext<readonly string[]>([]);

/** IMAGE_HOSTS, as the server read it (the root layout provides it). */
export function ImageHostsProvider({ hosts, children }: { hosts: readonly string[]; children: ReactNode }) {
  return <ImageHostsContext.Provider value={hosts}>{children}</ImageHostsContext.Provider>;
}

// Relative URLs resolve against this origin: what resolves to it stays on the app (`/\host` and `//host` do not).
const SAME = 'https://same-origin.invalid';

/** The page's origin once in the browser; null while rendering on the server (the first render matches it). */
function usePageOrigin(): string | null {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => null,
  );
}

export type ImageSource = { direct: true } | { direct: false; url?: URL };

/** How `src` may show in this page (imageSource with the server's IMAGE_HOSTS and the page's origin). */
export function useImageSource(src: string): ImageSource {
  return imageSource(src, useContext(ImageHostsContext), usePageOrigin());
}

/** Whether `src` loads without asking: the app's own (relative, or the page's origin), data: or blob:, or a host of
 *  IMAGE_HOSTS. Otherwise the URL to offer (absent when `src` is not a URL at all). */
export function imageSource(src: string, hosts: readonly string[], pageOrigin: string | null): ImageSource {
  let url: URL;
  try {
    url = new URL(src, `${SAME}/`);
  } catch {
    return { direct: false };
  }
  if (url.origin === SAME || (pageOrigin !== null && url.origin === pageOrigin)) return { direct: true };
  if (url.protocol === 'data:' || url.protocol === 'blob:') return { direct: true };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { direct: false };
  return imageHostAllowed(url, hosts) ? { direct: true } : { direct: false, url };
}

const PLACEHOLDER =
  'my-2 inline-flex max-w-full flex-wrap items-center gap-2 rounded border border-dashed border-neutral-400 px-2 py-1 text-sm text-neutral-700 dark:border-neutral-600 dark:text-neutral-300';
const LOAD_BUTTON =
  'rounded border border-neutral-300 px-2 py-0.5 break-all hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800 dark:focus-visible:outline-blue-400';

export interface AnswerImageProps {
  src?: string;
  alt?: string;
  className?: string;
  loading?: 'lazy' | 'eager';
}

export function AnswerImage({ src, alt, className, loading }: AnswerImageProps) {
  const t = useTranslations('markdown');
  const source = useImageSource(src ?? '');
  if (!src) return alt ? <span>{alt}</span> : null;
  if (source.direct)
    // eslint-disable-next-line @next/next/no-img-element -- the app's own images or IMAGE_HOSTS', of unknown size
    return <img src={src} alt={alt ?? ''} className={className} loading={loading} />;
  const url = source.url;
  return (
    <span className={PLACEHOLDER} data-image-placeholder="">
      <svg aria-hidden="true" viewBox="0 0 16 16" className="h-4 w-4 shrink-0" fill="none" stroke="currentColor">
        <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" />
        <circle cx="5.5" cy="6" r="1.25" />
        <path d="m2 12 4-4 3 3 2-2 3.5 3.5" />
      </svg>
      <span className="break-words">{alt ? t('imageNotLoaded', { alt }) : t('imageNotLoadedNoAlt')}</span>
      {url && (
        <button
          type="button"
          className={LOAD_BUTTON}
          title={t('opensInNewTab')}
          onClick={() => window.open(url.href, '_blank', 'noopener,noreferrer')}
        >
          {t('loadImage', { host: url.host })}
        </button>
      )}
    </span>
  );
}
