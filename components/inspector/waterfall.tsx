'use client';
import { useTranslations } from 'next-intl';
import { memo } from 'react';
import type { WaterfallRow, Bar, BarKind } from '../../lib/inspect/timeline';
import { formatPreciseDuration } from '../chat/format';
import { useFormatWords } from '../chat/use-format-words';

const COLORS: Record<BarKind, string> = {
  ttft: 'bg-amber-400 dark:bg-amber-500',
  generation: 'bg-blue-500 dark:bg-blue-400',
  tool: 'bg-emerald-500 dark:bg-emerald-400',
  retrieval: 'bg-violet-500 dark:bg-violet-400',
  child: 'bg-neutral-400 dark:bg-neutral-500',
};
const LEGEND: BarKind[] = ['ttft', 'generation', 'tool', 'retrieval'];

/** The timing waterfall of some iterations, on the whole run's clock (0..totalMs), with the child runs nested under
 *  the iteration before each (lib/inspect/timeline.ts). A row of the run's own selects its iteration; a child's row
 *  opens that child. */
export const Waterfall = memo(function Waterfall({
  rows,
  totalMs,
  onSelect,
  onOpenChild,
}: {
  rows: WaterfallRow[];
  totalMs: number;
  onSelect: (n: number) => void;
  onOpenChild: (path: number[]) => void;
}) {
  const t = useTranslations('inspector');
  const f = useFormatWords();
  const ms = (value: number) => formatPreciseDuration(value, f);
  // A tool's bar is named by the tool; the others by what they time.
  const label = (b: Bar) =>
    b.kind === 'tool' || b.kind === 'child'
      ? b.label
      : b.kind === 'retrieval'
        ? t('bars.retrievalQuery', { query: b.query ?? '' })
        : t(`bars.${b.kind as 'ttft' | 'generation'}`);
  const span = Math.max(totalMs, 1);
  const pct = (ms: number) => `${Math.min(100, Math.max(0, (ms / span) * 100))}%`;
  return (
    <figure aria-label={t('timeline')} className="min-w-0">
      <ul className="flex flex-wrap gap-3 text-xs text-neutral-600 dark:text-neutral-400" aria-label={t('legend')}>
        {[...LEGEND, ...(rows.some((r) => r.row.kind === 'child') ? (['child'] as const) : [])].map((kind) => (
          <li key={kind} className="flex items-center gap-1">
            <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-sm ${COLORS[kind]}`} />
            {t(`bars.${kind}`)}
          </li>
        ))}
        <li className="flex items-center gap-1">
          <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-sm bg-red-500" />
          {t('bars.failedTool')}
        </li>
      </ul>
      <ol className="mt-2 space-y-1">
        {rows.map(({ key, depth, row, child, bars }) => {
          const name =
            row.kind === 'iteration'
              ? `#${row.n}`
              : row.kind === 'child'
                ? row.agent
                : t('childIterationShort', { agent: row.agent, n: row.n });
          const timing =
            row.kind === 'iteration'
              ? (list: string) => t('iterationTiming', { n: row.n, bars: list })
              : row.kind === 'child'
                ? (list: string) => t('childRunTiming', { agent: row.agent, bars: list })
                : (list: string) => t('childIterationTiming', { agent: row.agent, n: row.n, bars: list });
          return (
            <li
              key={key}
              data-depth={depth}
              className="grid grid-cols-[6rem_1fr] items-center gap-2 text-xs"
              style={{ paddingLeft: `${depth}rem` }}
            >
              <span
                aria-hidden="true"
                className={`truncate text-neutral-700 dark:text-neutral-300 ${row.kind === 'child' ? 'font-semibold' : ''}`}
              >
                {name}
              </span>
              <div
                className="relative h-4 cursor-pointer rounded bg-neutral-100 dark:bg-neutral-900"
                onClick={() => (child ? onOpenChild(child) : row.kind === 'iteration' && onSelect(row.n))}
              >
                {bars.map((b, i) => (
                  <span
                    key={i}
                    title={t('barTitle', { label: label(b), duration: ms(b.endMs - b.startMs) })}
                    className={`absolute top-0.5 h-3 min-w-[2px] rounded-sm ${b.failed ? 'bg-red-500' : COLORS[b.kind]}`}
                    style={{ left: pct(b.startMs), width: pct(b.endMs - b.startMs) }}
                  />
                ))}
                <span className="sr-only">
                  {timing(
                    bars
                      .map((b) => t('barTitle', { label: label(b), duration: ms(b.endMs - b.startMs) }))
                      .join(t('listSeparator')),
                  )}
                </span>
              </div>
            </li>
          );
        })}
      </ol>
      <figcaption className="mt-1 flex justify-between text-xs text-neutral-500 dark:text-neutral-400">
        <span>0</span>
        <span>{ms(totalMs)}</span>
      </figcaption>
    </figure>
  );
});
