import { describe, expect, it } from 'vitest';
import { render } from '../chat/test-html';
import { RunFiguresView } from './run-figures';

const figures = (calls: number, failed: number) => ({
  runs: 1,
  newestOnly: false,
  tools: [{ name: 'calculator', calls, failed, p50Ms: 11, p95Ms: 11 }],
  models: [],
  days: [],
});

describe('RunFiguresView', () => {
  // The note beside each bar of the chart (drawn for the eye: the chart is aria-hidden, its table is read out).
  it('counts tool calls in the singular and the plural, with the numbers in the page’s format', () => {
    expect(render(<RunFiguresView figures={figures(1, 1)} />)).toContain('>1 call, 100.0 % failed<');
    expect(render(<RunFiguresView figures={figures(1200, 0)} />)).toContain('>1,200 calls, 0.0 % failed<');
    expect(render(<RunFiguresView figures={figures(1, 0)} />, 'zh-CN')).toContain('>1 次调用，0.0% 失败<');
  });
});
