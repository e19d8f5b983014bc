// A web page's readable text: Mozilla's Readability (what Firefox Reader View uses) over linkedom's DOM (light and
// server-side; jsdom is ~10x heavier). Readability's own textContent runs paragraphs together, so the article HTML
// is turned into text here, one block per line. Its time grows far faster than the page (a 30 KB page of nested
// blocks took minutes, a 5 MB page of paragraphs seconds): it runs in the parse pool's workers, under a time limit
// (readablePageOffThread, parse-pool.ts), never on the server's main thread.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TR',
  'UL',
]);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME']);

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

function blockText(root: DomNode): string {
  const out: string[] = [];
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      out.push((node.textContent ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    if (SKIP.has(node.nodeName)) return;
    const block = BLOCKS.has(node.nodeName);
    if (block) out.push('\n');
    if (node.nodeName === 'LI') out.push('- ');
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) out.push('\n');
  };
  walk(root);
  return out
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
}

export interface PageText {
  title: string;
  text: string;
}

export function readableText(html: string): PageText {
  const { document } = parseHTML(html);
  const pageTitle = (document.querySelector('title')?.textContent ?? '').trim();
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // Readability mutates the document it is given; the fallback below reads the same page again.
    article = new Readability(parseHTML(html).document as unknown as Document, { charThreshold: 100 }).parse();
  } catch {
    article = null;
  }
  if (article?.content) {
    const text = blockText(
      parseHTML(`<html><body>${article.content}</body></html>`).document.body as unknown as DomNode,
    );
    if (text) return { title: (article.title ?? '').trim() || pageTitle, text };
  }
  return { title: pageTitle, text: blockText(document.body as unknown as DomNode) };
}
