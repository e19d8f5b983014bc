// The Runs page's address: what it reads as filters, and what it leaves out and reports (one rule: a value that
// cannot be one of its filter's is left out and named; a free-text value is kept, even if nothing matches it).
import { describe, expect, it } from 'vitest';
import { rangeBackwards, readRunsAddress, runQueryFromParams, runQueryToParams } from './runs-address';

const read = (qs: string) => readRunsAddress(new URLSearchParams(qs));

describe('the Runs page address', () => {
  it('reads every filter and writes it back the same', () => {
    const qs =
      'q=zebra&outcome=error&tool=calculator&failed=1&model=m&agent=router&savedAgent=a1&from=2026-01-02&to=2026-02-03&page=3';
    const { query, ignored } = read(qs);
    expect(ignored).toEqual([]);
    expect(query).toEqual({
      text: 'zebra',
      outcome: 'error',
      tool: 'calculator',
      failedToolsOnly: true,
      model: 'm',
      agent: 'router',
      savedAgent: 'a1',
      from: '2026-01-02',
      to: '2026-02-03',
      page: 3,
    });
    expect(runQueryToParams(query).toString()).toBe(qs);
  });

  it('leaves out a value outside a closed set or a date that is no day, and names it', () => {
    const { query, ignored } = read('outcome=nonsense&agent=zzz&from=garbage&to=2026-02-30&failed=yes&page=abc&q=ok');
    expect(query).toEqual({ text: 'ok' });
    expect(ignored).toEqual([
      { name: 'outcome', value: 'nonsense' },
      { name: 'failed', value: 'yes' },
      { name: 'agent', value: 'zzz' },
      { name: 'from', value: 'garbage' },
      { name: 'to', value: '2026-02-30' },
      { name: 'page', value: 'abc' },
    ]);
  });

  it('reports no more than 100 characters of a value it leaves out', () => {
    expect(read(`outcome=${'x'.repeat(5000)}`).ignored[0]!.value).toHaveLength(100);
  });

  it('keeps free-text values that match nothing (a legitimate empty result)', () => {
    const { query, ignored } = read('model=zzz&tool=%3Cscript%3E');
    expect(ignored).toEqual([]);
    expect(query).toEqual({ model: 'zzz', tool: '<script>' });
  });

  it('takes page 1, failed=0 and empty values as nothing set, and a page no database offset can be as ignored', () => {
    expect(read('page=1&failed=0&outcome=&from=%20')).toEqual({ query: {}, ignored: [] });
    expect(read('page=1e20').ignored).toEqual([{ name: 'page', value: '1e20' }]);
    expect(read('page=99999999999').ignored).toEqual([{ name: 'page', value: '99999999999' }]);
    expect(read('page=-2').ignored).toEqual([{ name: 'page', value: '-2' }]);
  });

  it('takes a search of quotes alone as no search (it would list every run with the filter shown as set)', () => {
    for (const q of ['%22', '%22%22', '%22%20%22']) expect(read(`q=${q}`)).toEqual({ query: {}, ignored: [] });
    expect(read('q=%22noon%22').query).toEqual({ text: '"noon"' });
  });

  it('reads the first of repeated values, from a plain object as a page gets them', () => {
    expect(runQueryFromParams({ outcome: ['error', 'answered'], tool: undefined })).toEqual({ outcome: 'error' });
  });

  it('says when From is after To (both kept: the controls show what is applied)', () => {
    const { query, ignored } = read('from=2030-01-01&to=2020-01-01');
    expect(ignored).toEqual([]);
    expect(query).toEqual({ from: '2030-01-01', to: '2020-01-01' });
    expect(rangeBackwards(query)).toBe(true);
    expect(rangeBackwards({ from: '2020-01-01', to: '2020-01-01' })).toBe(false);
    expect(rangeBackwards({ from: '2030-01-01' })).toBe(false);
  });
});
