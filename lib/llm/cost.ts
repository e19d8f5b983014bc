// What model calls cost, and how full a call's context was: the tokens the server reported times the prices per
// million set on the model's connection, and a call's input tokens against the model's context length. An unknown
// price or count stays unknown (never a cost of 0).
import type { Pricing, Usage } from '../protocol/events';

/** What the user set for a model beyond its capabilities: its prices per million tokens and its context length. */
export interface ModelRates {
  pricing?: Pricing;
  contextLength?: number;
}

/** The rates of `model` among a connection's: the connection-wide ("*") entry, then the model's own, field by field. */
export function ratesFor(rates: Record<string, ModelRates>, model: string): ModelRates {
  const all = rates['*'] ?? {};
  const own = rates[model] ?? {};
  const out: ModelRates = {};
  const pricing = own.pricing ?? all.pricing;
  const contextLength = own.contextLength ?? all.contextLength;
  if (pricing) out.pricing = pricing;
  if (contextLength) out.contextLength = contextLength;
  return out;
}

export type CallCost =
  /** `amount`: in the prices' unit (no currency is assumed). */
  | { state: 'priced'; amount: number }
  /** No price is set for the model. */
  | { state: 'no-price' }
  /** Priced, but the server reported no token counts for the call. */
  | { state: 'no-usage' };

export function callCost(usage: Usage | undefined, pricing: Pricing | undefined): CallCost {
  if (!pricing) return { state: 'no-price' };
  if (!usage) return { state: 'no-usage' };
  return {
    state: 'priced',
    amount: (usage.promptTokens * pricing.inputPerMTok + usage.completionTokens * pricing.outputPerMTok) / 1e6,
  };
}

export type RunCost =
  /** `uncounted`: calls without token counts, left out of `amount` (the total is then a lower bound). */
  { state: 'priced'; amount: number; uncounted: number } | { state: 'no-price' };

/** The sum over a run's model calls (each call's usage, absent when the server sent none). */
export function runCost(calls: readonly (Usage | undefined)[], pricing: Pricing | undefined): RunCost {
  if (!pricing) return { state: 'no-price' };
  let amount = 0;
  let uncounted = 0;
  for (const usage of calls) {
    const cost = callCost(usage, pricing);
    if (cost.state === 'priced') amount += cost.amount;
    else uncounted++;
  }
  return { state: 'priced', amount, uncounted };
}

/** The cost of several runs as one (a run with its child runs): priced when any part is; a part without a price
 *  leaves its `calls` out, counted as uncounted, as calls without token counts are. */
export function sumCosts(parts: readonly { cost: RunCost; calls: number }[]): RunCost {
  let amount = 0;
  let uncounted = 0;
  let priced = false;
  for (const { cost, calls } of parts) {
    if (cost.state === 'priced') {
      priced = true;
      amount += cost.amount;
      uncounted += cost.uncounted;
    } else uncounted += calls;
  }
  return priced ? { state: 'priced', amount, uncounted } : { state: 'no-price' };
}

/** Past this share of the context a call is near its end (the gauge turns red and says so). */
export const CONTEXT_HIGH = 0.9;

export interface ContextGauge {
  inputTokens: number;
  contextLength: number;
  /** inputTokens / contextLength (above 1 when a server counts more than the length it names). */
  fraction: number;
  /** Whole percent, for the label. */
  percent: number;
  /** Past CONTEXT_HIGH. */
  high: boolean;
}

/** A call's input tokens against the context length; undefined when either is unknown. */
export function contextGauge(
  inputTokens: number | undefined,
  contextLength: number | undefined,
): ContextGauge | undefined {
  if (inputTokens === undefined || !contextLength || contextLength <= 0) return undefined;
  const fraction = inputTokens / contextLength;
  return { inputTokens, contextLength, fraction, percent: Math.round(fraction * 100), high: fraction > CONTEXT_HIGH };
}
