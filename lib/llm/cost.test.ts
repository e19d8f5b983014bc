// What a model call and a run cost, and the context gauge: plain arithmetic over usage and prices, with unknowns kept
// unknown.
import { describe, expect, it } from 'vitest';
import { callCost, CONTEXT_HIGH, contextGauge, ratesFor, runCost } from './cost';

const usage = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});
const PRICE = { inputPerMTok: 0.5, outputPerMTok: 1.5 };

describe('cost', () => {
  it('is input tokens times the input price plus output tokens times the output price, per million', () => {
    expect(callCost(usage(1_000_000, 0), PRICE)).toEqual({ state: 'priced', amount: 0.5 });
    const cost = callCost(usage(1200, 340), PRICE);
    expect(cost.state).toBe('priced');
    expect(cost.state === 'priced' && cost.amount).toBeCloseTo((1200 * 0.5 + 340 * 1.5) / 1e6, 12);
  });

  it('says "no price" without a price and "no usage" without token counts, never 0', () => {
    expect(callCost(usage(10, 10), undefined)).toEqual({ state: 'no-price' });
    expect(callCost(undefined, PRICE)).toEqual({ state: 'no-usage' });
    expect(runCost([usage(10, 10)], undefined)).toEqual({ state: 'no-price' });
  });

  it('sums a run, counting the calls without token counts apart', () => {
    const run = runCost([usage(1000, 100), undefined, usage(2000, 200)], PRICE);
    expect(run.state === 'priced' && run.uncounted).toBe(1);
    expect(run.state === 'priced' && run.amount).toBeCloseTo((3000 * 0.5 + 300 * 1.5) / 1e6, 12);
    expect(runCost([], PRICE)).toEqual({ state: 'priced', amount: 0, uncounted: 0 });
  });

  it('takes a model’s own rates over the connection-wide ones, field by field', () => {
    const rates = { '*': { pricing: PRICE, contextLength: 8192 }, big: { contextLength: 131072 } };
    expect(ratesFor(rates, 'big')).toEqual({ pricing: PRICE, contextLength: 131072 });
    expect(ratesFor(rates, 'other')).toEqual({ pricing: PRICE, contextLength: 8192 });
    expect(ratesFor({}, 'other')).toEqual({});
  });
});

describe('the context gauge', () => {
  it('is input tokens against the context length, high past 90 %', () => {
    expect(contextGauge(4096, 8192)).toEqual({
      inputTokens: 4096,
      contextLength: 8192,
      fraction: 0.5,
      percent: 50,
      high: false,
    });
    expect(contextGauge(9000, 10000)?.high).toBe(false); // 90 % exactly is not past it
    expect(contextGauge(9001, 10000)?.high).toBe(true);
    expect(CONTEXT_HIGH).toBe(0.9);
    expect(contextGauge(12000, 10000)).toMatchObject({ percent: 120, high: true });
  });

  it('is absent when the tokens or the length are unknown', () => {
    expect(contextGauge(undefined, 8192)).toBeUndefined();
    expect(contextGauge(100, undefined)).toBeUndefined();
    expect(contextGauge(100, 0)).toBeUndefined();
  });
});
