// Splits markdown into runs of top-level blocks that parse the same apart as together, so a streaming answer can
// parse its settled blocks once and re-parse only the growing tail (whole-answer re-parsing per frame is O(n^2)).
// A split goes only where CommonMark closes every open block anyway: at blank lines, before an unindented line
// that is not a list item, outside code fences, math and multi-line HTML. Only complete lines are judged, so a
// settled part never changes as text is appended.

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/;
/** Link reference and footnote definitions apply to the whole document: such text is not split. */
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;
const FOOTNOTE_REF = /\[\^[^\]\n]+\]/;
const MATH_DOLLARS = /^ {0,3}\$\$/;
const MATH_BRACKET = /^ {0,3}\\\[/;
/** CommonMark HTML blocks 1-5 may hold blank lines; each ends at its own marker. */
const HTML_BLOCKS: [RegExp, RegExp][] = [
  [/^ {0,3}<(?:pre|script|style|textarea)(?:[\s>]|$)/i, /<\/(?:pre|script|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];

type Open =
  | { kind: 'fence'; char: string; length: number }
  | { kind: 'math'; close: RegExp }
  | { kind: 'html'; close: RegExp };

function opens(line: string): Open | undefined {
  const fence = FENCE_OPEN.exec(line);
  const marker = fence?.[1];
  // A backtick fence's info string cannot hold backticks (that line is prose with inline code).
  if (marker && !(marker[0] === '`' && (fence[2] ?? '').includes('`'))) {
    return { kind: 'fence', char: marker[0] ?? '`', length: marker.length };
  }
  const dollars = MATH_DOLLARS.exec(line);
  if (dollars && !line.slice(dollars[0].length).includes('$$')) return { kind: 'math', close: /\$\$/ };
  const bracket = MATH_BRACKET.exec(line);
  if (bracket && !line.slice(bracket[0].length).includes('\\]')) return { kind: 'math', close: /\\\]/ };
  for (const [start, end] of HTML_BLOCKS) {
    const m = start.exec(line);
    if (m && !end.test(line.slice(m[0].length))) return { kind: 'html', close: end };
  }
  return undefined;
}

function closes(open: Open, line: string): boolean {
  if (open.kind !== 'fence') return open.close.test(line);
  const m = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return Boolean(m?.[1] && m[1][0] === open.char && m[1].length >= open.length);
}

const isBlank = (line: string) => /^[ \t]*$/.test(line);

export function splitMarkdownBlocks(text: string): string[] {
  if (DEFINITION.test(text) || FOOTNOTE_REF.test(text)) return [text];
  const lines = text.split('\n');
  const parts: string[] = [];
  let start = 0;
  /** One past the last non-blank line seen: a part ends there, without the blank lines that separate it. */
  let end = 0;
  let open: Open | undefined;
  // The last line may still be growing: it is never judged.
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i] ?? '';
    if (open) {
      if (closes(open, line)) open = undefined;
      end = i + 1;
      continue;
    }
    if (isBlank(line)) continue;
    if (end < i && !/^[ \t]/.test(line) && !LIST_ITEM.test(line)) {
      if (end > start) parts.push(lines.slice(start, end).join('\n'));
      start = i;
    }
    end = i + 1;
    open = opens(line);
  }
  parts.push(lines.slice(start).join('\n'));
  return parts;
}
