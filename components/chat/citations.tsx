'use client';

import { useTranslations } from 'next-intl';
import { memo, useId, useState } from 'react';
import type { RetrievalCandidate } from '../../lib/protocol/events';
import { DocumentViewer } from './document-viewer';
import { usePassageLabel } from './retrieval-card';

interface Source {
  /** The file and page the passages share. */
  key: string;
  passages: RetrievalCandidate[];
}

/** One source per document page, in the order the passages were used. */
export function sourcesOf(passages: readonly RetrievalCandidate[]): Source[] {
  const byPage = new Map<string, Source>();
  for (const p of passages) {
    const key = JSON.stringify([p.fileName, p.page ?? null]);
    let source = byPage.get(key);
    if (!source) byPage.set(key, (source = { key, passages: [] }));
    source.passages.push(p);
  }
  return [...byPage.values()];
}

function SourceItem({ source }: { source: Source }) {
  const t = useTranslations('retrieval');
  const passageLabel = usePassageLabel();
  const [open, setOpen] = useState(false);
  const [viewing, setViewing] = useState(false);
  const panelId = useId();
  const count = source.passages.length;
  const first = source.passages[0]!;
  return (
    <li className="flex flex-wrap items-start gap-1">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="rounded-full border border-neutral-300 px-2.5 py-0.5 text-xs text-neutral-800 hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-neutral-700 dark:text-neutral-200 dark:hover:bg-neutral-900"
      >
        {passageLabel(source.passages[0]!)}
        {count > 1 && <span className="text-neutral-600 dark:text-neutral-400"> · {t('passages', { n: count })}</span>}
      </button>
      <button
        type="button"
        aria-label={
          first.page !== undefined
            ? t('openAt', { file: first.fileName, page: first.page })
            : t('openFile', { file: first.fileName })
        }
        onClick={() => setViewing(true)}
        className="rounded-full px-2 py-0.5 text-xs text-blue-800 underline hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:text-blue-300 dark:hover:bg-neutral-900"
      >
        {t('open')}
      </button>
      {viewing && (
        <DocumentViewer
          hash={first.fileId}
          file={first.fileName}
          page={first.page ?? 1}
          passages={source.passages.map((p) => p.text)}
          onClose={() => setViewing(false)}
        />
      )}
      <div
        id={panelId}
        hidden={!open}
        className="mt-1 w-full space-y-2 rounded-md border border-neutral-200 bg-neutral-50 p-2 dark:border-neutral-800 dark:bg-neutral-900"
      >
        {open &&
          source.passages.map((p) => (
            <pre key={p.chunkId} className="max-h-64 overflow-auto font-mono text-xs whitespace-pre-wrap break-words">
              {p.text}
            </pre>
          ))}
      </div>
    </li>
  );
}

/** The document and page of the passages the answer drew on; opening one shows its passages. */
export const Citations = memo(function Citations({ passages }: { passages: RetrievalCandidate[] }) {
  const t = useTranslations('retrieval');
  if (!passages.length) return null;
  return (
    <section aria-label={t('sources')} className="mt-3">
      <h3 className="mb-1 text-xs font-semibold tracking-wide text-neutral-700 uppercase dark:text-neutral-300">
        {t('sources')}
      </h3>
      <ul className="flex flex-col items-start gap-1">
        {sourcesOf(passages).map((s) => (
          <SourceItem key={s.key} source={s} />
        ))}
      </ul>
    </section>
  );
});
