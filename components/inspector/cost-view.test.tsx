import { describe, expect, it } from 'vitest';
import { render, textOf } from '../chat/test-html';
import { RunTotalCostText } from './cost-view';

describe('RunTotalCostText', () => {
  it('says what a run and its helpers cost, and what it leaves out, in English and Chinese', () => {
    const priced = { state: 'priced', amount: 0.000612, uncounted: 0 } as const;
    expect(textOf(render(<RunTotalCostText cost={priced} />))).toContain("0.000612: this run's calls and its helpers'");
    const partial = { ...priced, uncounted: 2 };
    expect(textOf(render(<RunTotalCostText cost={partial} />))).toContain('without 2 calls that had no price');
    expect(textOf(render(<RunTotalCostText cost={partial} />, 'zh-CN'))).toContain('不含 2 次无价格');
    expect(textOf(render(<RunTotalCostText cost={{ state: 'no-price' }} />))).toBe(
      'No price set for any of their models',
    );
  });
});
