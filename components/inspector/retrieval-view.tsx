'use client';
import { useTranslations } from 'next-intl';
import type { RetrievalStep } from '../../lib/inspect/model';
import { formatNumber, formatPreciseDuration } from '../chat/format';
import { useFormatWords } from '../chat/use-format-words';
import { CARD } from './styles';

/** A retrieval step: the query, every candidate chunk with its score and token cost, and which went into the prompt. */
export function RetrievalView({ steps }: { steps: RetrievalStep[] }) {
  const t = useTranslations('inspector');
  const f = useFormatWords();
  const n = (value: number) => formatNumber(value, f.locale);
  if (!steps.length) return null;
  return (
    <section aria-label={t('retrieval')} className="space-y-2">
      <h3 className="text-sm font-semibold">{t('retrieval')}</h3>
      {steps.map((s, i) => (
        <div key={i} className={`${CARD} text-xs`}>
          <p>
            {t.rich('retrievalSummary', {
              query: s.query,
              by: s.by === 'memory' ? t('byMemory') : s.by === 'tool' ? t('byTool') : t('beforeCall'),
              duration: formatPreciseDuration(s.durationMs, f),
              used: s.candidates.filter((c) => c.used).length,
              total: s.candidates.length,
              usedTokens: n(s.usedTokens),
              budget: n(s.budgetTokens),
              q: (chunks) => <q className="font-mono">{chunks}</q>,
            })}
          </p>
          <div className="mt-1 overflow-x-auto">
            <table className="w-full text-left">
              <thead>
                <tr className="text-neutral-600 dark:text-neutral-400">
                  <th className="pr-2 font-medium">{t('columns.used')}</th>
                  <th className="pr-2 font-medium">{t('columns.score')}</th>
                  <th className="pr-2 font-medium">{t('columns.tokens')}</th>
                  <th className="pr-2 font-medium">{t('columns.source')}</th>
                  <th className="font-medium">{t('columns.text')}</th>
                </tr>
              </thead>
              <tbody>
                {s.candidates.map((c) => (
                  <tr key={c.chunkId} className={c.used ? '' : 'text-neutral-500 dark:text-neutral-500'}>
                    <td className="pr-2">{c.used ? t('yes') : t('no')}</td>
                    <td className="pr-2 font-mono">{formatNumber(c.score, f.locale, 3)}</td>
                    <td className="pr-2 font-mono">{n(c.tokens)}</td>
                    <td className="pr-2">
                      {c.page === undefined
                        ? c.fileName
                        : s.by === 'memory'
                          ? t('sourceTurn', { page: c.page })
                          : t('sourcePage', { file: c.fileName, page: c.page })}
                    </td>
                    <td className="max-w-md truncate" title={c.text}>
                      {c.text}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ))}
    </section>
  );
}
