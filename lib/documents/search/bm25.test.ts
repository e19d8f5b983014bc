import { describe, expect, it } from 'vitest';
import { bm25Scores, Bm25Index } from './bm25';
import { terms } from './terms';

const index = (texts: string[]) => new Bm25Index(texts.map(terms));

describe('BM25', () => {
  it('ranks the chunk about the query first, and scores chunks without the terms 0', () => {
    const idx = index([
      'The cafeteria opens at eight and serves breakfast.',
      'Annual leave: every employee gets 25 days of annual leave per year.',
      'Parking spaces are assigned by the facilities team.',
      'Expenses are reimbursed within 30 days.',
    ]);
    const [scores] = bm25Scores([idx], terms('How much annual leave do employees get?'));
    const best = [...scores!.keys()].sort((a, b) => scores![b]! - scores![a]!)[0];
    expect(best).toBe(1);
    expect(scores![0]).toBe(0);
    expect(scores![2]).toBe(0);
  });

  it('matches inflected forms through stemming', () => {
    const idx = index(['She reimbursed the expenses quickly.', 'Nothing relevant here at all.', 'Still nothing.']);
    const [scores] = bm25Scores([idx], terms('expense reimbursement'));
    expect(scores![0]).toBeGreaterThan(0);
    expect(scores![1]).toBe(0);
  });

  it('gives a rarer term more weight than a common one (idf)', () => {
    const idx = index(['leave leave policy', 'leave rules', 'leave forms', 'sabbatical leave', 'leave calendar']);
    const [scores] = bm25Scores([idx], terms('sabbatical leave'));
    const best = [...scores!.keys()].sort((a, b) => scores![b]! - scores![a]!)[0];
    expect(best).toBe(3);
  });

  it('a stop-word-only query scores nothing', () => {
    const idx = index(['The policy is here.', 'And there.']);
    expect([...bm25Scores([idx], terms('what is the'))[0]!]).toEqual([0, 0]);
  });

  it('finds Chinese text for a Chinese query', () => {
    const idx = index(['员工每年享有十五天带薪年假。', '食堂早上八点开门。', '停车位由行政部门分配。']);
    const [scores] = bm25Scores([idx], terms('年假有几天？'));
    expect(scores![0]).toBeGreaterThan(0);
    expect(scores![1]).toBe(0);
    expect(scores![2]).toBe(0);
  });

  it('scores several documents as one corpus, as one index over all their chunks would', () => {
    const a = ['annual leave is 25 days', 'parking rules'];
    const b = ['leave requests go to HR', 'cafeteria hours', 'annual review in May'];
    const q = terms('annual leave');
    const split = bm25Scores([index(a), index(b)], q);
    const [joined] = bm25Scores([index([...a, ...b])], q);
    expect([...split[0]!, ...split[1]!].map((x) => x.toFixed(9))).toEqual([...joined!].map((x) => x.toFixed(9)));
  });

  it('matches rank_bm25 on a worked example (k1 1.5, b 0.75, epsilon 0.25)', () => {
    // Three chunks; "leav" occurs in two of them: idf = ln(3-2+0.5) - ln(2+0.5) < 0, so 0.25 × the mean idf is used.
    const lists = [['annual', 'leav'], ['leav', 'form', 'hr'], ['park']];
    const idx = new Bm25Index(lists);
    const [scores] = bm25Scores([idx], ['leav']);
    const idf = (df: number) => Math.log(3 - df + 0.5) - Math.log(df + 0.5);
    const mean = (idf(1) * 4 + idf(2)) / 5; // vocabulary: annual, leav, form, hr, park
    const avgdl = 6 / 3;
    const expected = (dl: number) => (0.25 * mean * (1 * 2.5)) / (1 + 1.5 * (1 - 0.75 + (0.75 * dl) / avgdl));
    expect(scores![0]).toBeCloseTo(expected(2), 12);
    expect(scores![1]).toBeCloseTo(expected(3), 12);
    expect(scores![2]).toBe(0);
  });
});
