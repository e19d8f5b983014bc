'use client';
// A cited document opened at the cited page: the page's text as the parser read it (for every kind of document, and
// without serving the file itself to the page), the paragraphs the answer drew on marked, and the pages around it.
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { documentPage } from '@/app/actions/documents';
import type { DocumentPageView } from '@/lib/uploads/service';
import { Modal } from '../runs/modal';
import { Markdown } from './markdown';
import { reachServer } from './reach-server';
import { failureText, useCodedText, type CodedText } from './server-text';

const BUTTON =
  'rounded border border-neutral-300 px-2 py-1 text-sm hover:bg-neutral-100 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-neutral-700 dark:hover:bg-neutral-800';

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Does a passage the answer drew on hold this paragraph (or the paragraph hold the passage's start)? */
export function isCited(paragraph: string, passages: readonly string[]): boolean {
  const p = squash(paragraph);
  if (!p) return false;
  const probe = p.slice(0, 120);
  return passages.some((text) => {
    const c = squash(text);
    return c.includes(probe) || (c.length >= 20 && p.includes(c.slice(0, 120)));
  });
}

/**
 * A page's paragraphs as the answers' Markdown is shown (headings, tables, lists; raw HTML as text), those the answer
 * drew on marked. The parser writes Word headings and every table as Markdown, so it is read as such.
 */
export function PageText({
  paragraphs,
  cited,
}: {
  paragraphs: readonly string[];
  cited: (paragraph: string) => boolean;
}) {
  const t = useTranslations('retrieval');
  return (
    <div className="space-y-2 text-sm">
      {paragraphs.map((p, i) =>
        cited(p) ? (
          <mark
            key={i}
            title={t('citedHere')}
            className="block rounded bg-amber-100 px-1 text-neutral-900 dark:bg-amber-900 dark:text-neutral-100"
          >
            <Markdown text={p} />
          </mark>
        ) : (
          <Markdown key={i} text={p} />
        ),
      )}
    </div>
  );
}

export function DocumentViewer({
  hash,
  file,
  page,
  passages,
  onClose,
}: {
  /** The document's content hash (a retrieval candidate's fileId). */
  hash: string;
  file: string;
  page: number;
  /** The cited passages' text, marked where they are on the page. */
  passages: readonly string[];
  onClose: () => void;
}) {
  const t = useTranslations('retrieval');
  const [at, setAt] = useState(page);
  // The answer for the page asked last (an earlier, slower one is dropped).
  const [result, setResult] = useState<{ at: number; view?: DocumentPageView; error?: CodedText }>();
  const codedText = useCodedText('errors');
  useEffect(() => {
    let current = true;
    // Unanswered (the server down for a moment), it says so rather than opening for ever.
    void reachServer(() => documentPage(hash, at)).then((r) => {
      if (current) setResult(r.ok ? { at, view: r.value } : { at, error: failureText(r) });
    });
    return () => {
      current = false;
    };
  }, [hash, at]);
  const error = result?.at === at ? result.error : undefined;
  const shown = result?.at === at ? result.view : undefined;
  const title = shown ? t('viewerTitle', { file, page: shown.page, count: shown.pageCount }) : file;
  return (
    <Modal title={title} onClose={onClose}>
      {error ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          {t('viewerFailed', { error: codedText(error) })}
        </p>
      ) : !shown ? (
        <p role="status" className="text-sm">
          {t('viewerLoading')}
        </p>
      ) : (
        <div className="space-y-3">
          <div className="flex items-center gap-2">
            <button type="button" className={BUTTON} disabled={shown.page <= 1} onClick={() => setAt(shown.page - 1)}>
              {t('previousPage')}
            </button>
            <button
              type="button"
              className={BUTTON}
              disabled={shown.page >= shown.pageCount}
              onClick={() => setAt(shown.page + 1)}
            >
              {t('nextPage')}
            </button>
          </div>
          {shown.paragraphs.length === 0 && <p className="text-sm italic">{t('emptyPage')}</p>}
          <PageText paragraphs={shown.paragraphs} cited={(p) => shown.page === page && isCited(p, passages)} />
        </div>
      )}
    </Modal>
  );
}
