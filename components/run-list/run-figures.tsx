'use client';
// Figures over the filtered runs: tool calls per tool (failed part in red), tokens per model (in and out), runs per
// day. Small hand-written SVG bar charts: three bar shapes did not justify a charting library and its bundle. Each
// chart is drawn for the eye only (aria-hidden); its numbers, and more, are a table beside it that screen readers
// read (visually hidden; "Show as table" shows it to everyone).
import { useTranslations } from 'next-intl';
import { useId, useState, type ReactNode } from 'react';
import type { RunFigures } from '../../lib/store/run-query';
import { formatNumber, formatPreciseDuration } from '../chat/format';
import { useFormatWords } from '../chat/use-format-words';

const ROW_H = 22;
const LABEL_W = 140;
const CHART_W = 480;

interface Bar {
  label: string;
  /** Stacked segments, left to right. */
  parts: { value: number; className: string }[];
  note: string;
}

export function RunFiguresView({ figures }: { figures: RunFigures }) {
  const t = useTranslations('runsPage.figures');
  const words = useFormatWords();
  const n = (v: number) => formatNumber(v, words.locale);
  const ms = (v: number | undefined) => (v === undefined ? t('none') : formatPreciseDuration(v, words));
  const pct = (failed: number, calls: number) => formatNumber(calls ? (100 * failed) / calls : 0, words.locale, 1);

  return (
    <section aria-labelledby="run-figures" className="flex flex-col gap-6">
      <h2 id="run-figures" className="text-lg font-semibold">
        {figures.newestOnly ? t('titleNewest', { count: n(figures.runs) }) : t('title')}
      </h2>
      {figures.tools.length > 0 && (
        <Figure
          title={t('tools')}
          bars={figures.tools.map((f) => ({
            label: f.name,
            parts: [
              { value: f.calls - f.failed, className: 'fill-blue-600 dark:fill-blue-400' },
              { value: f.failed, className: 'fill-red-600 dark:fill-red-400' },
            ],
            note: t('toolNote', { calls: f.calls, rate: pct(f.failed, f.calls) }),
          }))}
          head={[t('tool'), t('calls'), t('failed'), t('failureRate'), t('p50'), t('p95')]}
          rows={figures.tools.map((f) => [
            f.name,
            n(f.calls),
            n(f.failed),
            t('percent', { n: pct(f.failed, f.calls) }),
            ms(f.p50Ms),
            ms(f.p95Ms),
          ])}
        />
      )}
      {figures.models.length > 0 && (
        <Figure
          title={t('models')}
          bars={figures.models.map((f) => ({
            label: f.model,
            parts: [
              { value: f.promptTokens, className: 'fill-blue-600 dark:fill-blue-400' },
              { value: f.completionTokens, className: 'fill-emerald-600 dark:fill-emerald-400' },
            ],
            note: t('modelNote', { prompt: n(f.promptTokens), completion: n(f.completionTokens) }),
          }))}
          head={[t('model'), t('modelCalls'), t('tokensIn'), t('tokensOut'), t('ttftP50'), t('ttftP95')]}
          rows={figures.models.map((f) => [
            f.model,
            n(f.calls),
            n(f.promptTokens),
            n(f.completionTokens),
            ms(f.ttftP50Ms),
            ms(f.ttftP95Ms),
          ])}
        />
      )}
      <Figure
        title={t('days')}
        bars={figures.days.map((d) => ({
          label: d.day,
          parts: [{ value: d.runs, className: 'fill-neutral-500 dark:fill-neutral-400' }],
          note: n(d.runs),
        }))}
        head={[t('day'), t('runs')]}
        rows={figures.days.map((d) => [d.day, n(d.runs)])}
      />
    </section>
  );
}

function Figure({ title, bars, head, rows }: { title: string; bars: Bar[]; head: string[]; rows: ReactNode[][] }) {
  const t = useTranslations('runsPage.figures');
  const id = useId();
  const [showTable, setShowTable] = useState(false);
  const max = Math.max(1, ...bars.map((b) => b.parts.reduce((s, p) => s + p.value, 0)));
  const barW = CHART_W - LABEL_W - 120;
  return (
    <figure aria-labelledby={id} className="flex flex-col gap-2">
      <figcaption id={id} className="flex items-center gap-3 font-medium">
        {title}
        <button
          type="button"
          aria-pressed={showTable}
          onClick={() => setShowTable(!showTable)}
          className="rounded px-2 py-0.5 text-xs font-normal text-blue-700 hover:bg-neutral-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:text-blue-300 dark:hover:bg-neutral-800"
        >
          {t('showTable')}
        </button>
      </figcaption>
      <svg
        aria-hidden="true"
        viewBox={`0 0 ${CHART_W} ${bars.length * ROW_H + 4}`}
        className="w-full max-w-xl text-neutral-700 dark:text-neutral-300"
      >
        {bars.map((b, i) => {
          let x = LABEL_W;
          const y = i * ROW_H + 2;
          return (
            <g key={b.label}>
              <text x={LABEL_W - 6} y={y + 14} textAnchor="end" fontSize="11" fill="currentColor">
                {b.label.length > 20 ? `${b.label.slice(0, 19)}…` : b.label}
              </text>
              {b.parts.map((p, j) => {
                const w = (p.value / max) * barW;
                const rect = <rect key={j} x={x} y={y + 3} width={w} height={ROW_H - 8} className={p.className} />;
                x += w;
                return rect;
              })}
              <text x={x + 6} y={y + 14} fontSize="11" fill="currentColor">
                {b.note}
              </text>
            </g>
          );
        })}
      </svg>
      {/* The box is what is hidden (a table will not shrink to sr-only's 1 px and would widen a phone's page). */}
      <div className={showTable ? 'overflow-x-auto' : 'sr-only'}>
        <table className="w-full max-w-xl text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h} scope="col" className="px-2 py-1">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) =>
                  j === 0 ? (
                    <th key={j} scope="row" className="px-2 py-1 font-normal">
                      {c}
                    </th>
                  ) : (
                    <td key={j} className="px-2 py-1">
                      {c}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
