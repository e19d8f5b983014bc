import { describe, expect, it } from 'vitest';
import { queryTerms, terms } from './terms';

describe('terms', () => {
  it('lower-cases, drops stop words and stems (Porter2)', () => {
    expect(terms('The employees are running their Policies')).toEqual(['employe', 'run', 'polici']);
  });

  it('keeps numbers, percentages, abbreviations and hyphenated words', () => {
    expect(terms('Raised 3.5% in the U.S.A. by e-mail')).toEqual(['rais', '3.5%', 'u.s.a.', 'e-mail']);
  });

  it('drops words that ask for the whole document', () => {
    expect(terms('Summarize this PDF paper')).toEqual([]);
  });

  it('segments Chinese into words and drops Chinese particles', () => {
    const t = terms('年假政策是什么？');
    expect(t).toContain('年假');
    expect(t).toContain('政策');
    expect(t).not.toContain('是');
    expect(t).not.toContain('什么');
  });
});

describe('queryTerms', () => {
  it('reads Qwen-Agent keyword JSON, splitting multi-word keywords', () => {
    expect(queryTerms('{"keywords_en": ["annual leave"], "keywords_zh": ["年假"], "text": "How long?"}')).toEqual([
      '年假',
      'annual',
      'leav',
      'long',
    ]);
  });

  it('treats anything else as text', () => {
    expect(queryTerms('{not json leave')).toEqual(['json', 'leav']);
  });
});
