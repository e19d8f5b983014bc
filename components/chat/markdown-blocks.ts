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
  { kind: 'fence'; char: string; length: number } | { kind: 'math'; close: RegExp } | { kind: 'html'; close: RegExp };

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
/** A line no later character can turn into a list item, fence, math, HTML, definition or indented code. */
const GROWING_PARAGRAPH = /^\p{L}/u;
const DEFINITION_LINE = new RegExp(DEFINITION.source);

/**
 * Splits markdown as `splitMarkdownBlocks` does, resuming where the previous call stopped when the new text extends
 * the text it has judged (a streaming answer then costs O(appended characters) per update, not O(length); settled
 * parts come back as the same strings). Any other text is split afresh.
 */
export class BlockSplitter {
  private text = '';
  private settled: string[] = [];
  /** Offset where the part still open begins. */
  private start = 0;
  /** Offset where the last non-blank judged line ends: the open part ends there if the next line starts a new one. */
  private end = 0;
  /** Offset of the first line not judged yet (the last line, which may still be growing). */
  private next = 0;
  private open: Open | undefined;
  /** A definition was seen: the text is one part. */
  private whole = false;

  split(text: string): string[] {
    if (!text.startsWith(this.text.slice(0, this.next))) this.reset();
    this.text = text;
    let from = this.next;
    for (let nl = text.indexOf('\n', from); nl !== -1; from = nl + 1, nl = text.indexOf('\n', from)) {
      this.judge(text.slice(from, nl), from, nl);
    }
    this.next = from;
    const tail = text.slice(from);
    if (this.whole || DEFINITION_LINE.test(tail) || FOOTNOTE_REF.test(tail)) return [text];
    // A growing line that begins with a letter after a blank line can only be a new paragraph (or heading or table)
    // whatever follows, so the part before it is already final: only the growing paragraph is parsed again per
    // update. The state is left alone; the line is judged the same way once it is complete.
    if (!this.open && from > this.end + 1 && this.end > this.start && GROWING_PARAGRAPH.test(tail)) {
      return [...this.settled, text.slice(this.start, this.end), tail];
    }
    return [...this.settled, text.slice(this.start)];
  }

  private reset(): void {
    this.settled = [];
    this.start = this.end = this.next = 0;
    this.open = undefined;
    this.whole = false;
  }

  private judge(line: string, from: number, to: number): void {
    if (this.whole) return;
    if (DEFINITION_LINE.test(line) || FOOTNOTE_REF.test(line)) {
      this.whole = true;
      return;
    }
    if (this.open) {
      if (closes(this.open, line)) this.open = undefined;
      this.end = to;
      return;
    }
    if (isBlank(line)) return;
    // A blank line lies between the last block and this unindented, non-list line: a new part starts here.
    if (from > this.end + 1 && !/^[ \t]/.test(line) && !LIST_ITEM.test(line)) {
      if (this.end > this.start) this.settled.push(this.text.slice(this.start, this.end));
      this.start = from;
    }
    this.end = to;
    this.open = opens(line);
  }
}

/** The parts of `text`, in order; joined with blank lines they give back the text (minus blank-line runs). */
export function splitMarkdownBlocks(text: string): string[] {
  return new BlockSplitter().split(text);
}
