import { describe, expect, it } from 'vitest';
import { Markdown, MarkdownPart } from './markdown';
import { BlockSplitter, splitMarkdownBlocks } from './markdown-blocks';
import { render } from './test-html';

const DOC = [
  '# Title',
  '',
  'Intro with `code`, **bold**, $x^2$ and a [link](https://example.org).',
  'Second line of the same paragraph.',
  '',
  'Setext heading',
  '---',
  '',
  '- tight one',
  '- tight two',
  '',
  '1. loose one',
  '',
  '2. loose two',
  '',
  '   continued inside item two',
  '',
  '   ```py',
  '   inside_the_item = 1',
  '',
  '   still = 2',
  '   ```',
  '',
  'Between lists.',
  '',
  '3. a list that starts at three',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '~~~',
  'tilde fence',
  '',
  '~~~',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '> quoted',
  '>',
  '> still quoted',
  '',
  '$$',
  'a = b',
  '',
  'c = d',
  '$$',
  '',
  '\\[',
  'e = mc^2',
  '',
  '\\]',
  '',
  '<!--',
  '',
  'an html comment with blank lines',
  '',
  '-->',
  '',
  'Paragraph before indented code.',
  '',
  '    indented code',
  '',
  '    more indented code',
  '',
  '***',
  '',
  '- [x] done',
  '- [ ] todo',
  '',
  'Last paragraph, then an unclosed fence:',
  '',
  '```js',
  'let open = true;',
  '',
  'open = false;',
].join('\n');

const inner = (html: string) => html.replace(/^<div class="[^"]*">/, '').replace(/<\/div>$/, '');
const asOneDocument = (text: string) => render(<MarkdownPart text={text} />);
const asParts = (text: string) => inner(render(<Markdown text={text} />));

describe('splitMarkdownBlocks', () => {
  it('splits between top-level blocks, keeping fences, math, html, lists and list items whole', () => {
    expect(splitMarkdownBlocks(DOC)).toEqual([
      '# Title',
      'Intro with `code`, **bold**, $x^2$ and a [link](https://example.org).\nSecond line of the same paragraph.',
      // A list item line never starts a part: it may continue a loose list (or be its first item).
      'Setext heading\n---\n\n- tight one\n- tight two\n\n1. loose one\n\n2. loose two\n\n' +
        '   continued inside item two\n\n   ```py\n   inside_the_item = 1\n\n   still = 2\n   ```',
      'Between lists.\n\n3. a list that starts at three',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```',
      '~~~\ntilde fence\n\n~~~',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      '> quoted\n>\n> still quoted',
      '$$\na = b\n\nc = d\n$$',
      '\\[\ne = mc^2\n\n\\]',
      '<!--\n\nan html comment with blank lines\n\n-->',
      'Paragraph before indented code.\n\n    indented code\n\n    more indented code',
      '***\n\n- [x] done\n- [ ] todo',
      'Last paragraph, then an unclosed fence:',
      '```js\nlet open = true;\n\nopen = false;',
    ]);
    // Nothing is lost or reordered: the parts are the document minus the blank lines between them.
    expect(splitMarkdownBlocks(DOC).join('\n\n')).toBe(DOC);
  });

  it('does not split text whose link or footnote definitions apply across blocks', () => {
    const refs = 'See [the docs][d].\n\nMore text.\n\n[d]: https://example.org';
    const notes = 'A claim.[^1]\n\nMore text.\n\n[^1]: The source.';
    expect(splitMarkdownBlocks(refs)).toEqual([refs]);
    expect(splitMarkdownBlocks(notes)).toEqual([notes]);
  });

  it('never judges the last line, which may still be growing', () => {
    // "1" may become "1. item", which would continue the list above rather than start a new part.
    expect(splitMarkdownBlocks('- a\n\n1')).toEqual(['- a\n\n1']);
    expect(splitMarkdownBlocks('- a\n\n1. b\n\nend\n')).toEqual(['- a\n\n1. b', 'end\n']);
  });

  it('parts off a growing line that can only be a new paragraph, so only that paragraph is parsed again', () => {
    expect(splitMarkdownBlocks('Intro.\n\n1. a\n2. b\n\nGrowing para')).toEqual([
      'Intro.\n\n1. a\n2. b',
      'Growing para',
    ]);
    expect(splitMarkdownBlocks('- a\n\n中文段落')).toEqual(['- a', '中文段落']);
    // What could still become a list item, a fence, math, HTML or indented code stays with the part before it.
    for (const tail of ['1', '-', '`', '$', '<', '    code', '[x'])
      expect(splitMarkdownBlocks(`- a\n\n${tail}`), tail).toEqual([`- a\n\n${tail}`]);
  });

  it('keeps every settled part unchanged while text is appended (so memoized parts are not parsed again)', () => {
    const final = splitMarkdownBlocks(DOC);
    for (let n = 0; n <= DOC.length; n++) {
      const parts = splitMarkdownBlocks(DOC.slice(0, n));
      expect(parts.slice(0, -1), `prefix of ${n} characters`).toEqual(final.slice(0, parts.length - 1));
    }
  });
});

describe('BlockSplitter', () => {
  it('gives the same parts as a fresh split while text streams in, and starts over on any other text', () => {
    const splitter = new BlockSplitter();
    for (let n = 0; n <= DOC.length; n += 1 + (n % 5)) {
      const prefix = DOC.slice(0, n);
      expect(splitter.split(prefix), `prefix of ${n} characters`).toEqual(splitMarkdownBlocks(prefix));
    }
    // A regenerated answer: shorter and different, then one whose late definition makes it a single part.
    expect(splitter.split('# Other\n\ntext\n')).toEqual(['# Other', 'text\n']);
    expect(splitter.split('# Other\n\ntext\n\n[a]: https://example.org')).toEqual([
      '# Other\n\ntext\n\n[a]: https://example.org',
    ]);
    expect(splitter.split('fresh\n\nstart\n')).toEqual(['fresh', 'start\n']);
  });
});

describe('Markdown rendered in parts', () => {
  it('produces exactly the markup of the whole document, for the full text and while it streams', () => {
    expect(asParts(DOC)).toBe(asOneDocument(DOC));
    expect(asParts(DOC)).toContain('<ol start="3">');
    // Streaming cuts (a sample: each render costs tens of ms): after lines, and inside lines (a word, a marker).
    const lineEnds: number[] = [];
    for (let n = DOC.indexOf('\n'); n !== -1; n = DOC.indexOf('\n', n + 1)) lineEnds.push(n);
    lineEnds.forEach((n, i) => {
      const line = DOC.lastIndexOf('\n', n - 1) + 1;
      const cuts = [i % 3 === 0 ? n + 1 : -1, i % 5 === 2 ? line + Math.ceil((n - line) / 2) : -1];
      for (const cut of cuts.filter((c) => c >= 0)) {
        const prefix = DOC.slice(0, cut);
        expect(asParts(prefix), `prefix of ${cut} characters`).toBe(asOneDocument(prefix));
      }
    });
  }, 60_000);

  it('renders references and footnotes as one document would', () => {
    const text = 'See [the docs][d].[^1]\n\nMore.\n\n[d]: https://example.org\n[^1]: The source.';
    expect(asParts(text)).toBe(asOneDocument(text));
    expect(asParts(text)).toContain('href="https://example.org"');
  });
});
