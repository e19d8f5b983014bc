// The plain text of a page, as web_extractor falls back to it: linear in the page however it is made (a tree parser
// keeps a stack of open elements, and htmlparser2's took 26 s for 200,000 nested blocks).
import { describe, expect, it } from 'vitest';
import { plainPageText } from './page-text';

describe('plainPageText', () => {
  it('gives the title and one block per line, without scripts, styles or the head', () => {
    const page = plainPageText(
      '<html><head><title>A  page &amp; more</title><style>p{}</style></head><body><h1>Heading</h1>' +
        '<p class="x">One &amp; <b>two</b>&#33;&#x21;</p><!-- a comment --><script>alert("<p>")</script>' +
        '<ul><li>first</li><li>second</li></ul><div>last<br>line</div></body></html>',
    );
    expect(page).toEqual({ title: 'A page & more', text: 'Heading\nOne & two!!\n- first\n- second\nlast\nline' });
  });

  it('reads a 5 MB page nested 450,000 deep (what a hostile page may be), one block per line', () => {
    const depth = 450_000;
    const page = plainPageText(`<html><body>${'<div>w '.repeat(depth)}bottom${'</div>'.repeat(depth)}</body></html>`);
    const lines = page.text.split('\n');
    expect(lines).toHaveLength(depth);
    expect(lines.at(-1)).toBe('w bottom');
  });

  it('reads what is not well-formed as text: lone and unclosed brackets, an endless comment, an unclosed script', () => {
    expect(plainPageText('<p>if a < b and 3<5, then</p>').text).toBe('if a < b and 3<5, then');
    expect(plainPageText(`${'<a'.repeat(500_000)}end`).text).toBe('');
    expect(plainPageText('<p>kept</p><!-- never closed <p>hidden</p>').text).toBe('kept');
    expect(plainPageText('<p>kept</p><script>never closed <p>hidden</p>').text).toBe('kept');
  });
});
