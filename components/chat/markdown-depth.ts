/**
 * How deep an answer's blocks (lists, blockquotes) may nest before it is shown as plain text without being parsed.
 *
 * The Markdown pipeline's work grows much faster than the text with nesting (measured in Node: a list nested 200
 * deep, 42 KB, takes ~1 s to build; 1,000 deep, ~1 MB, took 91 s before it overflowed the stack), so depth, not
 * size, is what to bound. A real answer nests a few levels (models write 2 to 4, rarely 8); 32 leaves room for a
 * deep outline or an indented YAML list in a code block, and a list 32 deep builds in a few milliseconds.
 */
export const MAX_BLOCK_DEPTH = 32;

const SPACE = 32;
const TAB = 9;
const NEWLINE = 10;
const RETURN = 13;
const QUOTE = 62; // >
const DOT = 46;
const PAREN = 41; // )

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB || code === NEWLINE || code === RETURN || Number.isNaN(code);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Whether some line of `text` opens blocks deeper than `limit`, read in one pass without parsing. A line's depth is
 * estimated from its start, the only place a level can be opened: one per container marker (`>`, `-`, `*`, `+`,
 * `1.`, `1)`) plus one per two columns of whitespace among them, since each enclosing list item is continued by at
 * least two columns of indentation. The estimate is never below the depth CommonMark gives the line (at most twice
 * it, for `- - - x`), so nothing deeper than the limit reaches the parser.
 */
export function nestsDeeperThan(text: string, limit = MAX_BLOCK_DEPTH): boolean {
  const end = text.length;
  let i = 0;
  while (i < end) {
    let columns = 0;
    let markers = 0;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === SPACE) {
        columns += 1;
        i += 1;
      } else if (c === TAB) {
        columns += 4;
        i += 1;
      } else if (c === QUOTE) {
        markers += 1;
        i += 1;
      } else if ((c === 45 || c === 42 || c === 43) && isBlank(text.charCodeAt(i + 1))) {
        markers += 1;
        i += 1;
      } else if (isDigit(c)) {
        let j = i + 1;
        while (j < end && j - i < 9 && isDigit(text.charCodeAt(j))) j += 1;
        const after = text.charCodeAt(j);
        if ((after !== DOT && after !== PAREN) || !isBlank(text.charCodeAt(j + 1))) break;
        markers += 1;
        i = j + 1;
      } else {
        break;
      }
      // Counted at a marker only: indentation that ends in text (code, a continued paragraph) opens nothing.
      const atMarker = c !== SPACE && c !== TAB;
      if (atMarker && markers + (columns >> 1) > limit) return true;
    }
    const newline = text.indexOf('\n', i);
    if (newline < 0) break;
    i = newline + 1;
  }
  return false;
}
