// Text differences for comparing runs: a line diff (jsdiff), with each changed block refined word by word, laid out
// as two sides (what the first run had, what the second had) with the differing parts marked.
import { diffLines, diffWordsWithSpace, type ChangeObject } from 'diff';

export type SegmentOp = 'same' | 'del' | 'add';
export interface Segment {
  op: SegmentOp;
  text: string;
}
export interface SideBySide {
  /** The first run's text: unchanged parts and what the second run does not have ('del'). */
  left: Segment[];
  /** The second run's text: unchanged parts and what it has instead ('add'). */
  right: Segment[];
  changed: boolean;
}

/** Word refinement is skipped past this many edits (a rewritten prompt): the block is marked whole instead. */
const MAX_WORD_EDITS = 2000;

export function diffText(a: string, b: string): SideBySide {
  if (a === b)
    return { left: a ? [{ op: 'same', text: a }] : [], right: b ? [{ op: 'same', text: b }] : [], changed: false };
  const left: Segment[] = [];
  const right: Segment[] = [];
  const lines = diffLines(a, b);
  for (let i = 0; i < lines.length; i++) {
    const c = lines[i]!;
    const next = lines[i + 1];
    if (c.removed && next?.added) {
      const words = diffWordsWithSpace(c.value, next.value, { maxEditLength: MAX_WORD_EDITS });
      if (words) place(words, left, right);
      else {
        push(left, 'del', c.value);
        push(right, 'add', next.value);
      }
      i++;
    } else place([c], left, right);
  }
  return { left, right, changed: true };
}

function place(changes: ChangeObject<string>[], left: Segment[], right: Segment[]): void {
  for (const c of changes) {
    if (c.added) push(right, 'add', c.value);
    else if (c.removed) push(left, 'del', c.value);
    else {
      push(left, 'same', c.value);
      push(right, 'same', c.value);
    }
  }
}

function push(side: Segment[], op: SegmentOp, text: string): void {
  if (!text) return;
  const last = side[side.length - 1];
  if (last?.op === op) last.text += text;
  else side.push({ op, text });
}
