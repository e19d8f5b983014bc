import { describe, expect, it } from 'vitest';
import { PageText, isCited } from './document-viewer';
import { render, textOf } from './test-html';

describe('the cited paragraphs of a page', () => {
  const passage = '[page: 3]\nParental leave: sixteen weeks,\npaid in full.\n\nAdoption counts the same.';
  it('are those a cited passage holds (whitespace aside), or that hold a passage', () => {
    expect(isCited('Parental leave: sixteen weeks, paid in full.', [passage])).toBe(true);
    expect(isCited('Adoption counts the same.', [passage])).toBe(true);
    expect(
      isCited('Intro. Parental leave: sixteen weeks, paid in full. More text after it.', [
        'Parental leave: sixteen weeks, paid in full.',
      ]),
    ).toBe(true);
  });
  it('leave the rest of the page, and empty paragraphs, unmarked', () => {
    expect(isCited('Parking is free on Sundays.', [passage])).toBe(false);
    expect(isCited('  ', [passage])).toBe(false);
    expect(isCited('Parental leave', ['Parental'])).toBe(false);
  });
});

describe('a page of a document in the viewer', () => {
  // What the parser makes of a Word memo: its heading and its table as Markdown, HTML in its text as it was written.
  const paragraphs = [
    '# Memo',
    'Parental leave: **sixteen** weeks.',
    '| Item | Cost |\n| --- | --- |\n| Desk | 120 |',
    'Footnote <img src=x onerror="alert(1)"> and [x](javascript:alert(2)).',
  ];
  const page = (locale: 'en' | 'zh-CN' = 'en') =>
    render(<PageText paragraphs={paragraphs} cited={(p) => p.startsWith('Parental')} />, locale);

  it('reads as the answers do: a heading, bold text and a table, not `#` and pipe rows', () => {
    const html = page();
    expect(html).toMatch(/<h2[^>]*>Memo<\/h2>/);
    expect(html).toContain('<strong>sixteen</strong>');
    expect(html).toMatch(/<th[^>]*>Cost<\/th>[\s\S]*<td[^>]*>Desk<\/td>/);
    expect(textOf(html)).not.toMatch(/# Memo|\| Item/);
  });

  it('shows HTML in the document as text and makes no javascript: link', () => {
    const html = page();
    expect(html).not.toMatch(/<img|href="javascript/i);
    expect(textOf(html)).toContain('<img src=x onerror="alert(1)">');
  });

  it('marks the cited paragraph, saying so in the page’s language', () => {
    expect(page()).toMatch(/<mark title="Cited in the answer"[^>]*>[\s\S]*<strong>sixteen<\/strong>[\s\S]*<\/mark>/);
    expect(page('zh-CN')).toContain('<mark title="回答中引用了这里"');
    expect(page().match(/<mark/g)).toHaveLength(1);
  });
});
