import { describe, expect, it } from 'vitest';
import { normalizeMath } from './math';

describe('normalizeMath', () => {
  it('turns \\( \\) into single dollars', () => {
    expect(normalizeMath('Area is \\( \\pi r^2 \\) here.')).toBe('Area is $\\pi r^2$ here.');
  });
  it('turns a \\[ \\] on its own lines into a $$ block, keeping the indentation', () => {
    expect(normalizeMath('Sum:\n\\[\n\\sum_i x_i\n\\]\ndone')).toBe('Sum:\n$$\n\\sum_i x_i\n$$\ndone');
    expect(normalizeMath('  \\[ a+b \\]')).toBe('  $$\n  a+b\n  $$');
  });
  it('keeps \\[ \\] inside a sentence inline as $$…$$ on one line', () => {
    expect(normalizeMath('so \\[a\n+b\\] holds')).toBe('so $$a +b$$ holds');
  });
  it('leaves fenced code and inline code exactly as written', () => {
    const fenced = '```latex\n\\[ x \\]\n```\nafter \\(y\\)';
    expect(normalizeMath(fenced)).toBe('```latex\n\\[ x \\]\n```\nafter $y$');
    expect(normalizeMath('use `\\(x\\)` for \\(x\\)')).toBe('use `\\(x\\)` for $x$');
    expect(normalizeMath('``a ` \\(b\\)`` \\(c\\)')).toBe('``a ` \\(b\\)`` $c$');
  });
  it('treats an unclosed fence (mid-stream) as code to the end', () => {
    expect(normalizeMath('\\(a\\)\n~~~\n\\(b\\)')).toBe('$a$\n~~~\n\\(b\\)');
  });
  it('does not make a display block of math that sits right after inline code', () => {
    expect(normalizeMath('`x` \\[y\\]')).toBe('`x` $$y$$');
  });
  it('leaves an unclosed delimiter alone and text without delimiters untouched', () => {
    expect(normalizeMath('start \\[ x + ')).toBe('start \\[ x + ');
    const plain = 'price $5 and `code`';
    expect(normalizeMath(plain)).toBe(plain);
  });
});
