// remark-math only knows dollar delimiters; models also write LaTeX's \( … \) and \[ … \]. These are rewritten to
// dollar forms outside code (fenced blocks and inline code spans stay exactly as written).

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/** Rewrites \( x \) to $x$ and \[ x \] to a $$ block (or inline $$x$$ when it sits inside a line of prose). */
export function normalizeMath(markdown: string): string {
  if (!markdown.includes('\\(') && !markdown.includes('\\[')) return markdown;
  const out: string[] = [];
  let prose: string[] = [];
  let fence: { char: string; len: number } | undefined;
  const flush = () => {
    if (prose.length) out.push(rewriteProse(prose.join('\n')));
    prose = [];
  };
  for (const line of markdown.split('\n')) {
    if (fence) {
      out.push(line);
      const close = new RegExp(`^ {0,3}${fence.char === '`' ? '`' : '~'}{${fence.len},}\\s*$`);
      if (close.test(line)) fence = undefined;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    const marker = open?.[1];
    // A backtick fence's info string may not contain backticks (CommonMark); such a line is prose.
    if (marker && !(marker[0] === '`' && line.slice(open.index + open[0].length).includes('`'))) {
      flush();
      fence = { char: marker[0] ?? '`', len: marker.length };
      out.push(line);
      continue;
    }
    prose.push(line);
  }
  flush();
  return out.join('\n');
}

/** Rewrites math in prose, leaving inline code spans (`…`, ``…``) untouched. */
function rewriteProse(text: string): string {
  let out = '';
  let plain = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      plain += text[i];
      i++;
      continue;
    }
    let run = 1;
    while (text[i + run] === '`') run++;
    const ticks = '`'.repeat(run);
    const close = findRun(text, ticks, i + run);
    if (close === -1) {
      plain += ticks;
      i += run;
      continue;
    }
    out += rewriteMath(plain, atLineStart(out), false) + text.slice(i, close + run);
    plain = '';
    i = close + run;
  }
  return out + rewriteMath(plain, atLineStart(out), true);
}

function atLineStart(done: string): boolean {
  return done === '' || done.endsWith('\n');
}

/** Index of the next backtick run of exactly `ticks.length`, or -1. */
function findRun(text: string, ticks: string, from: number): number {
  let at = text.indexOf(ticks, from);
  while (at !== -1) {
    let end = at + ticks.length;
    if (text[end] !== '`') return at;
    while (text[end] === '`') end++;
    at = text.indexOf(ticks, end);
  }
  return -1;
}

/** `startsLine` / `endsLine`: whether the text begins at a line start and ends at a line end (not beside code). */
function rewriteMath(text: string, startsLine: boolean, endsLine: boolean): string {
  return text
    .replace(/\\\[([\s\S]+?)\\\]/g, (match: string, inner: string, offset: number, whole: string) => {
      const lineStart = whole.lastIndexOf('\n', offset - 1) + 1;
      const before = whole.slice(lineStart, offset);
      const afterEnd = whole.indexOf('\n', offset + match.length);
      const after = whole.slice(offset + match.length, afterEnd === -1 ? whole.length : afterEnd);
      const body = inner.trim();
      const aloneBefore = (lineStart > 0 || startsLine) && /^[ \t]*$/.test(before);
      const aloneAfter = (afterEnd !== -1 || endsLine) && /^[ \t]*$/.test(after);
      if (aloneBefore && aloneAfter) return `$$\n${before}${body}\n${before}$$`;
      return `$$${body.replace(/\s*\n\s*/g, ' ')}$$`;
    })
    .replace(/\\\(([\s\S]+?)\\\)/g, (_m: string, inner: string) => `$${inner.trim()}$`);
}
