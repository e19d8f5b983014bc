// PowerPoint (.pptx): one page per slide, in the presentation's order; text boxes give paragraphs, tables give
// markdown tables. Read straight from the slide XML (fflate + htmlparser2, already here for HTML and the zip-bomb
// checks): the few parts needed are small, and a pptx package would bring its own unchecked zip and XML stack.
import type { ChildNode, Element } from './dom';
import { DocumentError, type DocumentPage } from '../types';
import { readZip } from '../zip';
import { markdownTables } from './markdown-table';
import { coreTitle, elements, relationships, textContent, xml } from './ooxml';

function isElement(node: ChildNode): node is Element {
  return node.type === 'tag';
}

function paragraphText(p: Element): string {
  let text = '';
  const visit = (node: ChildNode) => {
    if (!isElement(node)) return;
    if (node.name === 'a:t') text += textContent(node);
    else if (node.name === 'a:br') text += '\n';
    else node.children.forEach(visit);
  };
  visit(p);
  return text.replace(/[ \t]+/g, ' ').trim();
}

function slideParagraphs(slide: Element): string[] {
  const out: string[] = [];
  const visit = (node: ChildNode) => {
    if (!isElement(node)) return;
    if (node.name === 'a:tbl') {
      const rows = elements(node, 'a:tr').map((tr) =>
        tr.children
          .filter((c): c is Element => isElement(c) && c.name === 'a:tc')
          .map((tc) => elements(tc, 'a:p').map(paragraphText).filter(Boolean).join(' ')),
      );
      out.push(...markdownTables(rows));
      return;
    }
    if (node.name === 'a:p') {
      const text = paragraphText(node);
      if (text) out.push(text);
      return;
    }
    node.children.forEach(visit);
  };
  visit(slide);
  return out;
}

export function parsePptx(
  bytes: Uint8Array,
  name: string,
  maxUnzipped: number,
): { title?: string; pages: DocumentPage[] } {
  const parts = readZip(bytes, name, {
    maxTotal: maxUnzipped,
    keep: (p) => p.endsWith('.xml') || p.endsWith('.rels'),
  });
  const presentation = xml(parts.get('ppt/presentation.xml'));
  if (!presentation) throw new DocumentError(`${name} is corrupt: it has no ppt/presentation.xml.`, 'corrupt');
  const rels = relationships(parts, 'ppt/presentation.xml');
  const slidePaths = elements(presentation, 'p:sldId')
    .map((s) => rels.get(s.attribs['r:id'] ?? ''))
    .filter((p): p is string => Boolean(p));
  const pages = slidePaths.map((path, i): DocumentPage => {
    const slide = xml(parts.get(path));
    const root = slide && elements(slide, 'p:sld')[0];
    return { page: i + 1, paragraphs: root ? slideParagraphs(root) : [] };
  });
  return { title: coreTitle(parts), pages };
}
