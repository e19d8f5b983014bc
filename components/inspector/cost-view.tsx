'use client';
// What a model call and a run cost (at the prices the run started with), and how full a call's context was: a gauge
// of its input tokens against the model's context length, red past 90 % and saying so in words.
import { useTranslations } from 'next-intl';
import type { CallCost, ContextGauge, RunCost } from '../../lib/llm/cost';
import type { Pricing } from '../../lib/protocol/events';
import { formatNumber } from '../chat/format';
import { useFormatWords } from '../chat/use-format-words';
import { usePriceWhere } from './price-where';

/** A cost as a number (no currency is assumed): four significant digits, so a fraction of a cent still shows. */
export function useCostAmount(): (amount: number) => string {
  const f = useFormatWords();
  return (amount) =>
    amount === 0
      ? formatNumber(0, f.locale)
      : new Intl.NumberFormat(f.locale, { maximumSignificantDigits: 4 }).format(amount);
}

export function CallCostText({ cost }: { cost: CallCost }) {
  const t = useTranslations('cost');
  const amount = useCostAmount();
  if (cost.state === 'no-price') return <span>{t('callNoPrice')}</span>;
  if (cost.state === 'no-usage') return <span>{t('callNoUsage')}</span>;
  return <span>{t('call', { amount: amount(cost.amount) })}</span>;
}

/** `connection`: the run's (its run-start's name): a run without a price says where its prices are set. */
export function RunCostText({ cost, pricing, connection }: { cost: RunCost; pricing?: Pricing; connection?: string }) {
  const t = useTranslations('cost');
  const amount = useCostAmount();
  const where = usePriceWhere(connection);
  if (cost.state === 'no-price' || !pricing) return <>{t(`noPrice.${where}`)}</>;
  const rates = { input: amount(pricing.inputPerMTok), output: amount(pricing.outputPerMTok) };
  return (
    <>
      {cost.uncounted
        ? t('runPartial', { amount: amount(cost.amount), n: cost.uncounted, ...rates })
        : t('run', { amount: amount(cost.amount), ...rates })}
    </>
  );
}

/** A run's cost with its child runs' (a Router's helpers, a GroupChat's members), each at its own prices. */
export function RunTotalCostText({ cost }: { cost: RunCost }) {
  const t = useTranslations('cost');
  const amount = useCostAmount();
  if (cost.state === 'no-price') return <>{t('totalNoPrice')}</>;
  return (
    <>
      {cost.uncounted
        ? t('totalPartial', { amount: amount(cost.amount), n: cost.uncounted })
        : t('total', { amount: amount(cost.amount) })}
    </>
  );
}

export function ContextGaugeView({ gauge, known }: { gauge?: ContextGauge; known: boolean }) {
  const t = useTranslations('cost');
  const f = useFormatWords();
  const n = (v: number) => formatNumber(v, f.locale);
  if (!gauge) return known ? <span>{t('contextUnknown')}</span> : null;
  const text = t('context', { used: n(gauge.inputTokens), length: n(gauge.contextLength), percent: gauge.percent });
  const label = gauge.high ? `${text} ${t('contextHigh')}` : text;
  return (
    <span className="flex items-center gap-2">
      <span
        role="meter"
        aria-label={t('contextLabel')}
        aria-valuemin={0}
        aria-valuemax={gauge.contextLength}
        aria-valuenow={Math.min(gauge.inputTokens, gauge.contextLength)}
        aria-valuetext={label}
        data-high={gauge.high ? 'true' : undefined}
        className="inline-block h-2 w-24 overflow-hidden rounded bg-neutral-200 dark:bg-neutral-700"
      >
        <span
          className={`block h-full ${gauge.high ? 'bg-red-600 dark:bg-red-500' : 'bg-blue-600 dark:bg-blue-400'}`}
          style={{ width: `${Math.min(100, gauge.fraction * 100)}%` }}
        />
      </span>
      <span className={gauge.high ? 'font-semibold text-red-700 dark:text-red-300' : undefined}>
        {text}
        {gauge.high && <> {t('contextHigh')}</>}
      </span>
    </span>
  );
}
