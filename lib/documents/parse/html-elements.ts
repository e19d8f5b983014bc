// Which HTML elements hold no text of a document, and which stand as blocks of their own: what both readers of HTML
// here go by (parse/html.ts builds paragraphs from a tree; page-text.ts scans a page's tags when Readability could not
// read it in time).

/** Elements whose content is not the document's text. */
export const NON_TEXT_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'head',
  'textarea',
]);

/** Elements that start a block (a paragraph, a line) of their own. */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'br',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tr',
  'ul',
]);
