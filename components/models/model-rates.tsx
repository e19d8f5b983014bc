'use client';
// The connection form's "Prices and context" part: a price per million input and output tokens and a context length,
// for every model of the connection ("*") and, on rows added, for one model by name. What the rows say becomes the
// connection's `rates` when the form is saved; a row that does not read as numbers is refused with a sentence.
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import type { ModelRates } from '@/lib/llm/cost';
import { FIELD } from '../runs/modal';

export interface RateRow {
  /** "*": every model of the connection. */
  model: string;
  input: string;
  output: string;
  context: string;
}

const ALL = '*';

/** The rows a connection's rates show: the "*" row first (always there), then one per model. */
export function rateRows(rates: Record<string, ModelRates> | undefined): RateRow[] {
  const row = (model: string, r: ModelRates | undefined): RateRow => ({
    model,
    input: r?.pricing ? String(r.pricing.inputPerMTok) : '',
    output: r?.pricing ? String(r.pricing.outputPerMTok) : '',
    context: r?.contextLength ? String(r.contextLength) : '',
  });
  const models = Object.keys(rates ?? {}).filter((m) => m !== ALL);
  return [row(ALL, rates?.[ALL]), ...models.map((m) => row(m, rates?.[m]))];
}

export type RatesProblem = { key: 'bothPrices' | 'badPrice' | 'badContext' | 'noModelName'; model: string };

/** The rows as rates, or the first problem (for the form to show). Empty rows are left out. */
export function ratesOf(rows: readonly RateRow[]): { rates: Record<string, ModelRates> } | { problem: RatesProblem } {
  const rates: Record<string, ModelRates> = {};
  for (const row of rows) {
    const model = row.model.trim();
    const [input, output, context] = [row.input.trim(), row.output.trim(), row.context.trim()];
    if (!input && !output && !context) continue;
    if (!model) return { problem: { key: 'noModelName', model } };
    if (Boolean(input) !== Boolean(output)) return { problem: { key: 'bothPrices', model } };
    const r: ModelRates = {};
    if (input) {
      const [i, o] = [Number(input), Number(output)];
      if (![i, o].every((v) => Number.isFinite(v) && v >= 0)) return { problem: { key: 'badPrice', model } };
      r.pricing = { inputPerMTok: i, outputPerMTok: o };
    }
    if (context) {
      const n = Number(context);
      if (!Number.isInteger(n) || n < 1) return { problem: { key: 'badContext', model } };
      r.contextLength = n;
    }
    rates[model] = r;
  }
  return { rates };
}

/** The problem in words. */
export function useRatesProblemText(): (p: RatesProblem) => string {
  const t = useTranslations('modelRates');
  return (p) => t(`problems.${p.key}`, { model: p.model === ALL ? t('allModels') : p.model });
}

export function ModelRatesFields({ rows, onChange }: { rows: RateRow[]; onChange: (rows: RateRow[]) => void }) {
  const t = useTranslations('modelRates');
  const id = useId();
  const set = (i: number, patch: Partial<RateRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="space-y-2 text-sm" aria-describedby={`${id}-help`}>
      <legend className="font-medium">{t('title')}</legend>
      <p id={`${id}-help`} className="text-xs text-neutral-600 dark:text-neutral-400">
        {t('help')}
      </p>
      {rows.map((row, i) => {
        const name = row.model === ALL ? t('allModels') : row.model || t('newModel');
        return (
          <div key={i} role="group" aria-label={name} className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {row.model === ALL ? (
              <span className="self-end pb-1 font-medium">{t('allModels')}</span>
            ) : (
              <label className="flex flex-col gap-1">
                <span>{t('model')}</span>
                <input className={FIELD} value={row.model} onChange={(e) => set(i, { model: e.target.value })} />
              </label>
            )}
            <label className="flex flex-col gap-1">
              <span>{t('inputPrice')}</span>
              <input
                className={FIELD}
                inputMode="decimal"
                value={row.input}
                onChange={(e) => set(i, { input: e.target.value })}
              />
            </label>
            <label className="flex flex-col gap-1">
              <span>{t('outputPrice')}</span>
              <input
                className={FIELD}
                inputMode="decimal"
                value={row.output}
                onChange={(e) => set(i, { output: e.target.value })}
              />
            </label>
            <label className="flex flex-col gap-1">
              <span>{t('contextLength')}</span>
              <span className="flex gap-1">
                <input
                  className={`${FIELD} min-w-0 flex-1`}
                  inputMode="numeric"
                  value={row.context}
                  onChange={(e) => set(i, { context: e.target.value })}
                />
                {row.model !== ALL && (
                  <button
                    type="button"
                    className="rounded border border-neutral-300 px-2 text-xs dark:border-neutral-700"
                    aria-label={t('removeRow', { model: name })}
                    onClick={() => onChange(rows.filter((_, j) => j !== i))}
                  >
                    ×
                  </button>
                )}
              </span>
            </label>
          </div>
        );
      })}
      <button
        type="button"
        className="rounded border border-neutral-300 px-2 py-1 text-xs hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800"
        onClick={() => onChange([...rows, { model: '', input: '', output: '', context: '' }])}
      >
        {t('addModel')}
      </button>
    </fieldset>
  );
}

/** One line saying what a connection's rates are (the environment's come from its variables), or nothing. */
export function RatesSummary({ rates }: { rates: Record<string, ModelRates> }) {
  const t = useTranslations('modelRates');
  const entries = Object.entries(rates).filter(([, r]) => r.pricing || r.contextLength);
  if (!entries.length) return null;
  return (
    <p className="text-xs text-neutral-600 dark:text-neutral-400">
      {entries
        .map(([model, r]) =>
          t('summary', {
            model: model === ALL ? t('allModels') : model,
            input: r.pricing ? String(r.pricing.inputPerMTok) : '–',
            output: r.pricing ? String(r.pricing.outputPerMTok) : '–',
            context: r.contextLength ? String(r.contextLength) : '–',
          }),
        )
        .join(' · ')}
    </p>
  );
}
