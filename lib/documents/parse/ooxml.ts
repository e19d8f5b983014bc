// Shared by the Office parsers: XML parts read from a checked zip, and the document title from docProps/core.xml.
import { parseDocument, DomUtils } from 'htmlparser2';
import type { Document, Element } from './dom';

export function xml(bytes: Uint8Array | undefined): Document | undefined {
  if (!bytes) return undefined;
  return parseDocument(new TextDecoder('utf-8').decode(bytes), { xmlMode: true, decodeEntities: true });
}

export function elements(root: Document | Element, tag: string): Element[] {
  return DomUtils.getElementsByTagName(tag, root, true);
}

export function textContent(node: Element): string {
  return DomUtils.textContent(node);
}

/** dc:title of docProps/core.xml, when set. */
export function coreTitle(parts: Map<string, Uint8Array>): string | undefined {
  const core = xml(parts.get('docProps/core.xml'));
  const title = core && elements(core, 'dc:title')[0];
  return title ? textContent(title).trim() || undefined : undefined;
}

/** Relationship id → part path, for the rels file of `part` (e.g. ppt/presentation.xml). */
export function relationships(parts: Map<string, Uint8Array>, part: string): Map<string, string> {
  const dir = part.slice(0, part.lastIndexOf('/'));
  const file = part.slice(part.lastIndexOf('/') + 1);
  const rels = xml(parts.get(`${dir}/_rels/${file}.rels`));
  const out = new Map<string, string>();
  for (const rel of rels ? elements(rels, 'Relationship') : []) {
    const id = rel.attribs.Id;
    const target = rel.attribs.Target;
    if (!id || !target) continue;
    out.set(id, target.startsWith('/') ? target.slice(1) : normalise(`${dir}/${target}`));
  }
  return out;
}

function normalise(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '..') out.pop();
    else if (seg && seg !== '.') out.push(seg);
  }
  return out.join('/');
}
