'use client';
// The provider's SSE chunks of one model call as received (recorded with raw-stream recording on), in order, with
// the chunk of the first token, each tool-call delta and the finish reason marked.
import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { markRawStream } from '../../lib/inspect/raw-stream';
import type { RawStream } from '../../lib/protocol/events';
import { formatNumber, formatPreciseDuration } from '../chat/format';
import { useFormatWords } from '../chat/use-format-words';
import { CARD, SECTION_TITLE } from './styles';

const MARK_STYLE: Record<string, string> = {
  'first-token': 'bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-100',
  'tool-call': 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  finish: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  usage: 'bg-neutral-200 text-neutral-900 dark:bg-neutral-800 dark:text-neutral-100',
  done: 'bg-neutral-200 text-neutral-900 dark:bg-neutral-800 dark:text-neutral-100',
};

export function RawStreamView({ stream }: { stream: RawStream }) {
  const t = useTranslations('inspector.rawStream');
  const f = useFormatWords();
  const chunks = useMemo(() => markRawStream(stream), [stream]);
  return (
    <section aria-label={t('title')} className={`${CARD} space-y-2 text-xs`}>
      <h3 className={SECTION_TITLE}>{t('title')}</h3>
      <p>
        {t('summary', { count: formatNumber(chunks.length, f.locale), bytes: formatNumber(stream.bytes, f.locale) })}
        {stream.dropped > 0 && <> {t('dropped', { count: formatNumber(stream.dropped, f.locale) })}</>}
      </p>
      <ol aria-label={t('chunks')} className="max-h-96 space-y-1 overflow-y-auto">
        {chunks.map((c, i) => (
          <li key={i} data-marks={c.marks.join(' ')} className="flex gap-2">
            <span className="w-16 shrink-0 text-right text-neutral-600 tabular-nums dark:text-neutral-400">
              {formatPreciseDuration(c.t, f)}
            </span>
            <span className="flex shrink-0 gap-1">
              {c.marks.map((m) => (
                <span key={m} className={`rounded px-1 ${MARK_STYLE[m]}`}>
                  {m === 'finish' ? t('finish', { reason: c.finishReason ?? '' }) : t(`marks.${m}`)}
                </span>
              ))}
            </span>
            <code className="min-w-0 font-mono break-all whitespace-pre-wrap">{c.data}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}
