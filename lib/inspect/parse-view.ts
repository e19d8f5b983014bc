// The parse view: the model's raw text cut into segments, marking where the function-call format found tool calls
// (nous <tool_call> tags, qwen ✿ markers, ReAct Action lines) and think blocks. It marks what the markers delimit;
// the calls the agent actually extracted are the tool steps, and what failed to parse is in llm-end.parseErrors.
import type { CallFormat } from '../protocol/enums';

export type SegmentKind = 'text' | 'think' | 'call' | 'thought' | 'answer' | 'observation';

export interface Segment {
  kind: SegmentKind;
  text: string;
}

interface Region {
  start: number;
  end: number;
  kind: SegmentKind;
}

function regionsBetween(text: string, open: string, closes: string[], kind: SegmentKind, keepClose: boolean): Region[] {
  const out: Region[] = [];
  let from = 0;
  while (from < text.length) {
    const start = text.indexOf(open, from);
    if (start < 0) break;
    let end = text.length;
    let closeLen = 0;
    for (const close of closes) {
      const at = text.indexOf(close, start + open.length);
      if (at >= 0 && at < end) {
        end = at;
        closeLen = close.length;
      }
    }
    const stop = keepClose ? end + closeLen : end;
    out.push({ start, end: stop, kind });
    from = Math.max(stop, start + open.length);
  }
  return out;
}

const REACT_MARKER = /^[ \t]*(Thought|Action Input|Action|Final Answer|Observation)\s*:/gm;
const REACT_KIND: Record<string, SegmentKind> = {
  Thought: 'thought',
  Action: 'call',
  'Action Input': 'call',
  'Final Answer': 'answer',
  Observation: 'observation',
};

function reactRegions(text: string): Region[] {
  const marks = [...text.matchAll(REACT_MARKER)].map((m) => ({ at: m.index ?? 0, kind: REACT_KIND[m[1]!]! }));
  return marks.map((m, i) => ({ start: m.at, end: marks[i + 1]?.at ?? text.length, kind: m.kind }));
}

function callRegions(text: string, format: CallFormat): Region[] {
  switch (format) {
    case 'nous':
      return regionsBetween(text, '<tool_call>', ['</tool_call>'], 'call', true);
    case 'qwen':
      return regionsBetween(text, '✿FUNCTION✿', ['✿RESULT✿', '✿RETURN✿', '\n✿FUNCTION✿'], 'call', false);
    case 'react':
      return reactRegions(text);
    default:
      return [];
  }
}

/** Cuts `text` into consecutive segments that join back to it exactly. */
export function parseSegments(text: string, format: CallFormat): Segment[] {
  const think = regionsBetween(text, '<think>', ['</think>'], 'think', true);
  const calls = callRegions(text, format).filter((c) => !think.some((t) => c.start < t.end && c.end > t.start));
  const regions = [...think, ...calls].sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let pos = 0;
  for (const r of regions) {
    if (r.start < pos) continue;
    if (r.start > pos) out.push({ kind: 'text', text: text.slice(pos, r.start) });
    if (r.end > r.start) out.push({ kind: r.kind, text: text.slice(r.start, r.end) });
    pos = r.end;
  }
  if (pos < text.length) out.push({ kind: 'text', text: text.slice(pos) });
  return out;
}

export const FORMAT_NAMES: Record<CallFormat, string> = {
  native: 'native tool_calls (the server parsed the calls)',
  nous: '<tool_call> tags (nous/hermes prompt format)',
  qwen: '✿FUNCTION✿ / ✿ARGS✿ markers (qwen prompt format)',
  react: 'ReAct text (Thought / Action / Action Input, stopped at Observation)',
  none: 'no tools offered: plain text',
};
