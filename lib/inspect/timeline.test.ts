// The waterfall's rows: a Router's helper nests under the iteration that called it, on the parent's clock.
import { describe, expect, it } from 'vitest';
import { foldInspection } from './fold';
import type { ChildRun, InspectedRun, Iteration } from './model';
import { waterfallRows } from './timeline';

function iteration(n: number, startT: number, endT: number): Iteration {
  return { ...foldInspection([]).iterations[0], n, startT, endT, tools: [], retrievals: [] } as Iteration;
}

function run(agent: string, iterations: Iteration[], children?: ChildRun[]): InspectedRun {
  return { ...foldInspection([]), agent, iterations, ...(children ? { children } : {}) };
}

describe('waterfallRows', () => {
  it('puts a child after the iteration before it, its iterations one deeper and shifted to the parent’s clock', () => {
    const helper = run('Helper', [iteration(1, 5, 25)]);
    const router = run(
      'Desk',
      [iteration(1, 0, 100), iteration(2, 300, 400)],
      [{ agent: 'Helper', startT: 120, endT: 160, run: helper }],
    );
    const rows = waterfallRows(router);
    expect(rows.map((r) => [r.key, r.depth, r.row.kind])).toEqual([
      ['1', 0, 'iteration'],
      ['child:0', 1, 'child'],
      ['0:1', 2, 'child-iteration'],
      ['2', 0, 'iteration'],
    ]);
    expect(rows[1]!.bars).toMatchObject([{ kind: 'child', startMs: 120, endMs: 160 }]);
    expect(rows[2]!.bars.find((b) => b.kind === 'generation')).toMatchObject({ startMs: 125, endMs: 145 });
    // A page of iterations that does not hold the child's anchor leaves it out.
    expect(waterfallRows(router, [router.iterations[1]!]).map((r) => r.key)).toEqual(['2']);
  });
});
