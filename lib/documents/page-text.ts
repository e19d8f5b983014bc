// A web page's text in one forward scan of its tags, one block per line: what a page gives when Readability could
// not read it in time. No tree and no stack of open elements (htmlparser2's Parser keeps one and took 26 s for
// 200,000 nested blocks), so it is linear in the page however it nests; a tag it cannot make out reads as text.
import type { PageText } from './web-page';
import { BLOCK_ELEMENTS as BLOCK, NON_TEXT_ELEMENTS as SKIP } from './parse/html-elements';

/** A comment (to its end, or the page's), a tag (its attributes up to the next < or >), a run of text, a lone <. */
const TOKEN = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)[^<>]*>?|[^<]+|</y;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function squash(text: string): string {
  return decodeEntities(text).replace(/\s+/g, ' ');
}

/** The text of the page's first <title>, wherever it is. */
function titleOf(html: string, lower: string): string {
  const open = /<title[^<>]*>/y;
  for (let at = lower.indexOf('<title'); at >= 0; at = lower.indexOf('<title', at + 1)) {
    open.lastIndex = at;
    if (!open.exec(lower)) continue;
    const end = lower.indexOf('</title', open.lastIndex);
    return squash(html.slice(open.lastIndex, end < 0 ? html.length : end)).trim();
  }
  return '';
}

export function plainPageText(html: string): PageText {
  const lower = html.toLowerCase();
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(html); m; m = TOKEN.exec(html)) {
    const [token, closing, tagName] = m;
    if (!tagName) {
      if (token[0] !== '<' || token === '<') out.push(squash(token));
      continue;
    }
    const name = tagName.toLowerCase();
    if (!closing && (name === 'title' || SKIP.has(name))) {
      // The element's content, up to its closing tag (or the page's end), is not text of the page.
      const end = lower.indexOf(`</${name}`, TOKEN.lastIndex);
      TOKEN.lastIndex = end < 0 ? html.length : end;
      continue;
    }
    if (BLOCK.has(name)) out.push('\n');
    if (name === 'li' && !closing) out.push('- ');
  }
  const text = out
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('\n');
  return { title: titleOf(html, lower), text };
}
