// From pdf.js text items (strings with positions) to paragraphs: items become lines, lines with the same columns
// become markdown tables, and the remaining lines are joined into paragraphs where the spacing says they belong
// together.
import { markdownTables } from './markdown-table';

export interface PositionedText {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

interface Line {
  y: number;
  size: number;
  cells: { x: number; text: string }[];
}

const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

function joinInline(left: string, right: string, gap: number, size: number): string {
  if (!left) return right;
  if (/\s$/.test(left) || /^\s/.test(right) || gap <= size * 0.15) return left + right;
  return `${left} ${right}`;
}

export function toLines(items: PositionedText[]): Line[] {
  const lines: Line[] = [];
  let line: Line | undefined;
  let lastEnd = 0;
  for (const item of items) {
    // pdf.js adds whitespace items across gaps; the gap itself (measured to the next word) decides.
    if (!item.str.trim()) continue;
    const size = item.size || 10;
    const sameLine = line && Math.abs(item.y - line.y) <= Math.max(line.size, size) * 0.5 && item.x >= lastEnd - size;
    if (!line || !sameLine) {
      line = { y: item.y, size, cells: [{ x: item.x, text: item.str }] };
      lines.push(line);
    } else {
      const gap = item.x - lastEnd;
      const cell = line.cells[line.cells.length - 1]!;
      if (gap > Math.max(size * 1.5, 12) && item.str.trim()) line.cells.push({ x: item.x, text: item.str });
      else cell.text = joinInline(cell.text, item.str, gap, size);
      line.size = Math.max(line.size, size);
    }
    lastEnd = item.x + item.width;
  }
  for (const l of lines)
    l.cells = l.cells.map((c) => ({ x: c.x, text: c.text.replace(/\s+/g, ' ').trim() })).filter((c) => c.text);
  return lines.filter((l) => l.cells.length);
}

/** Two or more consecutive lines of two or more cells whose columns start at about the same places. */
function tableRunLength(lines: Line[], start: number): number {
  const first = lines[start]!;
  if (first.cells.length < 2) return 0;
  let end = start + 1;
  while (end < lines.length) {
    const l = lines[end]!;
    if (l.cells.length !== first.cells.length) break;
    const aligned = l.cells.every(
      (c, i) => Math.abs(c.x - first.cells[i]!.x) <= Math.max(first.size, 10) * 2 || i === 0,
    );
    if (!aligned) break;
    end++;
  }
  return end - start >= 2 ? end - start : 0;
}

function lineText(line: Line): string {
  return line.cells.map((c) => c.text).join(' ');
}

function joinLines(prev: string, next: string): string {
  if (/\p{L}-$/u.test(prev) && /^\p{Ll}/u.test(next)) return prev.slice(0, -1) + next;
  if (CJK.test(prev.slice(-1)) && CJK.test(next[0] ?? '')) return prev + next;
  return `${prev} ${next}`;
}

export function layoutParagraphs(items: PositionedText[]): string[] {
  const lines = toLines(items);
  const paragraphs: string[] = [];
  let current: { text: string; y: number; size: number } | undefined;
  const flush = () => {
    if (current?.text) paragraphs.push(current.text);
    current = undefined;
  };
  for (let i = 0; i < lines.length;) {
    const run = tableRunLength(lines, i);
    if (run) {
      flush();
      paragraphs.push(...markdownTables(lines.slice(i, i + run).map((l) => l.cells.map((c) => c.text))));
      i += run;
      continue;
    }
    const line = lines[i]!;
    const text = lineText(line);
    const gap = current ? current.y - line.y : 0;
    const together =
      current &&
      gap > 0 &&
      gap <= Math.max(current.size, line.size) * 1.6 &&
      Math.abs(current.size - line.size) <= current.size * 0.2;
    if (current && together) current = { text: joinLines(current.text, text), y: line.y, size: line.size };
    else {
      flush();
      current = { text, y: line.y, size: line.size };
    }
    i++;
  }
  flush();
  return paragraphs;
}
