// HTML to readable paragraphs: scripts, styles and other non-content are dropped; headings, list items and block
// elements become paragraphs; tables become markdown tables. Also used for DOCX, which mammoth turns into HTML.
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from './dom';
import { markdownTables } from './markdown-table';
import { BLOCK_ELEMENTS as BLOCK, NON_TEXT_ELEMENTS as SKIP } from './html-elements';

export interface HtmlText {
  title?: string;
  paragraphs: string[];
}

function isElement(node: ChildNode): node is Element {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

function textOf(node: ChildNode): string {
  if (node.type === 'text') return node.data;
  if (!isElement(node) || SKIP.has(node.name)) return '';
  if (node.name === 'br') return '\n';
  return node.children.map(textOf).join('');
}

function squash(text: string): string {
  return text
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

function tableRows(table: Element): string[][] {
  const rows: string[][] = [];
  const visit = (node: ChildNode) => {
    if (!isElement(node)) return;
    if (node.name === 'tr') {
      rows.push(
        node.children
          .filter((c): c is Element => isElement(c) && (c.name === 'td' || c.name === 'th'))
          .map((c) => squash(textOf(c)).replace(/\n/g, ' ')),
      );
      return;
    }
    if (node.name === 'table' && node !== table) return; // a nested table is flattened into its cell's text
    node.children.forEach(visit);
  };
  visit(table);
  return rows;
}

export function htmlToText(html: string): HtmlText {
  const doc = parseDocument(html, { decodeEntities: true });
  const paragraphs: string[] = [];
  let inline = '';
  let title: string | undefined;
  const flush = () => {
    const text = squash(inline);
    inline = '';
    if (text)
      paragraphs.push(
        ...text
          .split(/\n{2,}/)
          .map((p) => p.trim())
          .filter(Boolean),
      );
  };
  const walk = (node: ChildNode, listDepth: number) => {
    if (node.type === 'text') {
      inline += node.data;
      return;
    }
    if (!isElement(node)) return;
    const tag = node.name;
    if (tag === 'title' && !title) title = squash(textOf(node)) || undefined;
    if (SKIP.has(tag)) {
      if (tag === 'head') node.children.forEach((c) => isElement(c) && c.name === 'title' && walk(c, listDepth));
      return;
    }
    if (tag === 'title') return;
    if (tag === 'br') {
      inline += '\n';
      return;
    }
    if (tag === 'table') {
      flush();
      paragraphs.push(...markdownTables(tableRows(node)));
      return;
    }
    if (!BLOCK.has(tag)) {
      node.children.forEach((c) => walk(c, listDepth));
      return;
    }
    flush();
    const heading = /^h([1-6])$/.exec(tag);
    if (heading || tag === 'li' || tag === 'pre') {
      const text = tag === 'pre' ? textOf(node).trim() : squash(textOf(node));
      if (text) {
        if (heading) paragraphs.push(`${'#'.repeat(Number(heading[1]))} ${text.replace(/\n/g, ' ')}`);
        else if (tag === 'pre') paragraphs.push(text);
        else {
          // A list item's own text; nested lists follow as their own items.
          const own = squash(
            node.children
              .filter((c) => !(isElement(c) && (c.name === 'ul' || c.name === 'ol')))
              .map(textOf)
              .join(''),
          );
          if (own) paragraphs.push(`${'  '.repeat(listDepth)}- ${own}`);
          node.children
            .filter((c): c is Element => isElement(c) && (c.name === 'ul' || c.name === 'ol'))
            .forEach((c) => walk(c, listDepth + 1));
        }
      }
      return;
    }
    node.children.forEach((c) => walk(c, listDepth));
    flush();
  };
  doc.children.forEach((c) => walk(c, 0));
  flush();
  if (!title) {
    const h1 = paragraphs.find((p) => p.startsWith('# '));
    if (h1) title = h1.slice(2);
  }
  return { title, paragraphs };
}
