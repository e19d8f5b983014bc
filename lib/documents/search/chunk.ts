// A parsed document cut into chunks the way Qwen-Agent's doc_parser cuts it: paragraphs packed greedily into chunks
// of at most `pageSize` tokens, each chunk opening with a "[page: N]" line (and another where the page changes),
// over-long paragraphs split into sentences and over-long sentences cut by tokens, and each chunk after the first
// starting with up to 150 characters from the end of the previous one when they come from the same page.
import { countTokens, truncateTokens } from '../../llm/tokens';
import type { ParsedDocument } from '../types';

export const DEFAULT_PARSER_PAGE_SIZE = 500;
export const OVERLAP_CHARS = 150;
const SEPARATOR = '\n';

export interface Chunk {
  /** 0-based position in the document. */
  index: number;
  /** The chunk's text with its "[page: N]" lines. */
  content: string;
  tokens: number;
  /** First and last page of the chunk's own text (the overlap repeated from the chunk before is not counted). */
  page: number;
  lastPage: number;
}

interface Unit {
  text: string;
  page: number;
  tokens: number;
}

export function pageMarker(page: number): string {
  return `[page: ${page}]`;
}

/** Sentences of a paragraph, each keeping its ". " or "。" (upstream drops them). */
function sentences(text: string): string[] {
  return text.split(/(?<=\. |。)/).filter((s) => s.trim());
}

/** Cuts a text into pieces of at most `max` tokens each. */
function cutByTokens(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest) {
    let head = truncateTokens(rest, max);
    if (!head) head = rest.slice(0, 1); // a single character always goes, or nothing would move
    pieces.push(head);
    rest = rest.slice(head.length);
  }
  return pieces;
}

/** Paragraphs as units no larger than `max` tokens: long ones split into sentences, long sentences cut. */
function units(doc: ParsedDocument, max: number): Unit[] {
  const out: Unit[] = [];
  for (const { page, paragraphs } of doc.pages) {
    for (const paragraph of paragraphs) {
      if (!paragraph.trim()) continue;
      const tokens = countTokens(paragraph);
      if (tokens <= max) {
        out.push({ text: paragraph, page, tokens });
        continue;
      }
      for (const sentence of sentences(paragraph)) {
        const t = countTokens(sentence);
        if (t <= max) out.push({ text: sentence, page, tokens: t });
        else
          for (const piece of cutByTokens(sentence, max)) out.push({ text: piece, page, tokens: countTokens(piece) });
      }
    }
  }
  return out;
}

/** Up to OVERLAP_CHARS characters from the end of `parts`, all from `page`: whole paragraphs, then sentences. */
function overlapOf(parts: Unit[], page: number): string {
  let overlap = '';
  let room = OVERLAP_CHARS;
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part.page !== page) break;
    if (part.text.length <= room) {
      overlap = overlap ? `${part.text}${SEPARATOR}${overlap}` : part.text;
      room -= part.text.length;
      continue;
    }
    const list = sentences(part.text);
    for (let j = list.length - 1; j >= 0; j--) {
      const s = list[j]!;
      if (s.length > room) return overlap;
      overlap = overlap ? `${s}${overlap}` : s;
      room -= s.length;
    }
    return overlap;
  }
  return overlap;
}

class ChunkBuilder {
  parts: Unit[] = [];
  /** Parts that are the chunk's own text (not overlap from the previous chunk). */
  own = 0;
  tokens = 0;

  constructor(readonly pageSize: number) {}

  /** Tokens `unit` adds: its text, the separator, and a page marker when the page changes. */
  cost(unit: Unit): number {
    const last = this.parts[this.parts.length - 1];
    const marker = !last || last.page !== unit.page ? countTokens(pageMarker(unit.page)) + 1 : 0;
    return unit.tokens + marker + (this.parts.length ? 1 : 0);
  }

  add(unit: Unit, own = true): void {
    this.tokens += this.cost(unit);
    this.parts.push(unit);
    if (own) this.own++;
  }

  text(parts = this.parts): string {
    const lines: string[] = [];
    let page: number | undefined;
    for (const part of parts) {
      if (part.page !== page) lines.push(pageMarker(part.page));
      page = part.page;
      lines.push(part.text);
    }
    return lines.join(SEPARATOR);
  }
}

/**
 * The document's chunks. A document that fits in one chunk is one chunk. Every chunk's text (markers included)
 * counts at most `pageSize` tokens.
 */
export function chunkDocument(doc: ParsedDocument, pageSize = DEFAULT_PARSER_PAGE_SIZE): Chunk[] {
  const markerRoom = countTokens(pageMarker(Math.max(1, ...doc.pages.map((p) => p.page)))) + 2;
  const queue = units(doc, pageSize - markerRoom);
  const chunks: Chunk[] = [];
  let current = new ChunkBuilder(pageSize);

  const flush = (): void => {
    // Counting the joined text can differ from the sum of its parts by rounding; give back parts until it fits.
    let content = current.text();
    let tokens = countTokens(content);
    while (tokens > pageSize && current.own > 1) {
      queue.unshift(current.parts.pop()!);
      current.own--;
      content = current.text();
      tokens = countTokens(content);
    }
    if (tokens > pageSize && current.parts.length > current.own) {
      current.parts.shift(); // the overlap goes before the chunk's own text does
      content = current.text();
      tokens = countTokens(content);
    }
    // Cited by the page its own text starts on, not the overlap's.
    const pages = current.parts.slice(current.parts.length - current.own).map((p) => p.page);
    chunks.push({ index: chunks.length, content, tokens, page: pages[0]!, lastPage: pages[pages.length - 1]! });
    const last = current.parts[current.parts.length - 1]!;
    const overlap = overlapOf(current.parts, last.page);
    current = new ChunkBuilder(pageSize);
    if (overlap.trim()) current.add({ text: overlap, page: last.page, tokens: countTokens(overlap) }, false);
  };

  while (queue.length) {
    const unit = queue.shift()!;
    if (current.tokens + current.cost(unit) <= pageSize) {
      current.add(unit);
      continue;
    }
    if (current.own) flush();
    else current = new ChunkBuilder(pageSize); // the overlap alone leaves no room: drop it
    queue.unshift(unit);
  }
  if (current.own) flush();
  return chunks;
}
