'use client';
import { useTranslations } from 'next-intl';
import { useMemo, type ReactNode } from 'react';
import type { Iteration } from '../../lib/inspect/model';
import { parseSegments, type SegmentKind } from '../../lib/inspect/parse-view';
import { PRE, SECTION_TITLE } from './styles';

const MARK: Record<SegmentKind, string> = {
  text: '',
  think: 'bg-neutral-200 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300',
  call: 'bg-emerald-100 text-emerald-950 outline outline-1 outline-emerald-500 dark:bg-emerald-950 dark:text-emerald-100',
  thought: 'bg-amber-50 dark:bg-amber-950',
  answer: 'bg-blue-100 dark:bg-blue-950',
  observation: 'bg-neutral-200 dark:bg-neutral-800',
};
/** The model's raw output for one call, with what the function-call format extracted marked in it. */
export function ResponseView({ iteration }: { iteration: Iteration }) {
  const t = useTranslations('inspector');
  const r = iteration.response;
  const mono = (chunks: ReactNode) => <span className="font-mono">{chunks}</span>;
  const segments = useMemo(() => parseSegments(r.content, iteration.format), [r.content, iteration.format]);
  return (
    <section aria-label={t('response')} className="space-y-3">
      <h3 className="text-sm font-semibold">{t('rawResponse')}</h3>
      <p className="text-xs text-neutral-700 dark:text-neutral-300">
        {t.rich('readFrom', {
          format: t(`formats.${iteration.format}`, { tag: '<tool_call>' }),
          strong: (chunks) => <strong>{chunks}</strong>,
        })}
        {iteration.finishReason && (
          <>
            {' · '}
            {t.rich('finishReason', { reason: iteration.finishReason, mono })}
          </>
        )}
        {r.differsFromShown && (
          <>
            {' · '}
            {t('differs')}
          </>
        )}
      </p>
      {r.separateReasoning && (
        <div>
          <h4 className={SECTION_TITLE}>{t('separateReasoning')}</h4>
          <pre className={PRE}>{r.separateReasoning}</pre>
        </div>
      )}
      <div>
        <h4 className={SECTION_TITLE}>{t('content')}</h4>
        {r.content ? (
          <pre className={PRE} tabIndex={0} aria-label={t('rawContent')}>
            {segments.map((s, i) =>
              s.kind === 'text' ? (
                <span key={i}>{s.text}</span>
              ) : (
                <mark key={i} className={`rounded-sm ${MARK[s.kind]}`}>
                  <span className="sr-only">[{t(`segments.${s.kind as Exclude<SegmentKind, 'text'>}`)}: </span>
                  {s.text}
                  <span className="sr-only">]</span>
                </mark>
              ),
            )}
          </pre>
        ) : (
          <p className="text-xs text-neutral-600 italic dark:text-neutral-400">{t('noText')}</p>
        )}
      </div>
      {r.toolCalls.length > 0 && (
        <div>
          <h4 className={SECTION_TITLE}>{t('nativeToolCalls')}</h4>
          <ul className="space-y-1 text-xs">
            {r.toolCalls.map((c) => (
              <li key={c.id}>
                <span className="font-mono font-semibold">{c.name}</span>{' '}
                <span className="font-mono text-neutral-600 dark:text-neutral-400">({c.id})</span>
                <pre className={PRE}>{c.arguments}</pre>
              </li>
            ))}
          </ul>
        </div>
      )}
      {iteration.parseErrors.length > 0 && (
        <div className="rounded-md border border-red-300 bg-red-50 p-2 text-xs text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          <h4 className="font-semibold">{t('parseFailed')}</h4>
          <ul className="list-disc pl-5">
            {iteration.parseErrors.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
