// The ReAct text format used by the ReActChat agent: the model writes Thought / Action / Action Input, stops at
// "Observation:", the agent appends the tool result and a new "Thought: ", and so on until "Final Answer:".
import type { ReactPart } from '../../protocol/enums';
import type { FunctionDef, Lang } from '../schema';
import { pyJsonDumps } from './json-slice';

export const REACT_STOP_WORDS = ['Observation:', 'Observation:\n'];

type ToolDef = FunctionDef & { name_for_human?: unknown; args_format?: unknown };

const TEXT = {
  en: {
    tool: (name: string, human: string, description: string) =>
      `${name}: Use this tool to work with the ${human} API. What it does: ${description} Parameters: `,
    body: (
      tools: string,
      names: string,
      query: string,
    ) => `Answer the question below as well as you can. These tools are available to you:

${tools}

Write your reply in exactly this format:

Question: the question you have to answer
Thought: think about what to do next
Action: the tool to use, one of [${names}]
Action Input: the input for that tool
Observation: what the tool returned
... (Thought/Action/Action Input/Observation may repeat any number of times, including zero)
Thought: I can now give the answer
Final Answer: the answer to the original question

Start now.

Question: ${query}
Thought: `,
  },
  zh: {
    tool: (name: string, human: string, description: string) =>
      `${name}: 调用此工具可使用${human} API。用途：${description} 参数：`,
    body: (tools: string, names: string, query: string) => `请尽力回答下面的问题。你可以使用这些工具：

${tools}

请严格按照以下格式作答：

Question: 需要回答的问题
Thought: 思考下一步该做什么
Action: 要使用的工具，必须是[${names}]中的一个
Action Input: 传给该工具的输入
Observation: 工具返回的结果
...（Thought/Action/Action Input/Observation 可以重复任意次，也可以一次都没有）
Thought: 我现在可以给出答案了
Final Answer: 对原问题的最终回答

现在开始。

Question: ${query}
Thought: `,
  },
} as const;

function describeTool(f: ToolDef, lang: Lang): string {
  const human = typeof f.name_for_human === 'string' && f.name_for_human ? f.name_for_human : f.name;
  const argsFormat = typeof f.args_format === 'string' ? f.args_format : '';
  return `${TEXT[lang].tool(f.name, human, f.description)}${pyJsonDumps(f.parameters)} ${argsFormat}`.trimEnd();
}

/** The whole ReAct instruction for one question; it ends with "Question: <query>\nThought: " for the model to continue. */
export function buildReactPrompt(tools: readonly FunctionDef[], query: string, lang: Lang = 'en'): string {
  const descs = tools.map((t) => describeTool(t, lang)).join('\n\n');
  const names = tools.map((t) => t.name).join(',');
  return TEXT[lang].body(descs, names, query);
}

// Markers at the start of the text or of a line. Upstream matches exactly "\nAction:" etc.; leading spaces, extra
// spaces before the colon, other letter case and a marker at the very start of the text are accepted as well.
const ACTION = /(?:^|\n)[ \t]*action[ \t]*:/gi;
const ACTION_INPUT = /(?:^|\n)[ \t]*action[ \t]+input[ \t]*:/gi;
const OBSERVATION = /(?:^|\n)[ \t]*observation[ \t]*:/gi;

interface Hit {
  start: number;
  end: number;
}

function allHits(re: RegExp, text: string): Hit[] {
  return [...text.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

export interface ReactAction {
  /** The model's text before the Action line. */
  thought: string;
  action: string;
  actionInput: string;
}

/**
 * The tool call in one model output, or null. Like upstream: the LAST Action marker must come before the LAST Action
 * Input marker; a missing Observation after the input (the stop word swallowed it) is assumed to be at the end. The
 * input runs to the first Observation after it. An input starting with ``` gets a leading newline (Markdown).
 */
export function detectReactAction(text: string): ReactAction | null {
  const action = allHits(ACTION, text).pop();
  const input = allHits(ACTION_INPUT, text).pop();
  if (!action || !input || action.start >= input.start) return null;
  const observation = allHits(OBSERVATION, text).find((h) => h.start >= input.end);
  let actionInput = text.slice(input.end, observation ? observation.start : text.length).trim();
  if (actionInput.startsWith('```')) actionInput = `\n${actionInput}`;
  return {
    thought: text.slice(0, action.start),
    action: text.slice(action.end, input.start).trim(),
    actionInput,
  };
}

export interface ReactStep {
  thought: string;
  action?: string;
  actionInput?: string;
  observation?: string;
  finalAnswer?: string;
}

const STEP_MARKER = /(?:^|\n)[ \t]*(thought|action[ \t]+input|action|observation|final[ \t]+answer)[ \t]*:/gi;
type Kind = 'thought' | 'action' | 'actionInput' | 'observation' | 'finalAnswer';

function kindOf(label: string): Kind {
  const key = label.toLowerCase().replace(/[ \t]+/g, ' ');
  if (key === 'action input') return 'actionInput';
  if (key === 'final answer') return 'finalAnswer';
  return key as 'thought' | 'action' | 'observation';
}

// A field that, once set, means a marker of `kind` must belong to the next step.
const CLOSES: Record<Kind, Kind[]> = {
  thought: ['thought', 'action', 'actionInput', 'observation', 'finalAnswer'],
  action: ['action', 'actionInput', 'observation', 'finalAnswer'],
  actionInput: ['actionInput', 'observation', 'finalAnswer'],
  observation: ['observation', 'finalAnswer'],
  finalAnswer: ['finalAnswer'],
};

function isSet(step: ReactStep, kind: Kind): boolean {
  return kind === 'thought' ? step.thought !== '' : step[kind] !== undefined;
}

/** Splits a whole ReAct transcript ("Thought: … Action: … Observation: … Final Answer: …") into steps for display. */
export function parseReactSteps(transcript: string): ReactStep[] {
  const marks = [...transcript.matchAll(STEP_MARKER)];
  const steps: ReactStep[] = [];
  let current: ReactStep | undefined;
  const preamble = transcript.slice(0, marks[0]?.index ?? transcript.length).trim();
  if (preamble) {
    current = { thought: preamble };
    steps.push(current);
  }
  marks.forEach((m, n) => {
    const kind = kindOf(m[1] ?? '');
    const bodyEnd = marks[n + 1]?.index ?? transcript.length;
    const body = transcript.slice(m.index + m[0].length, bodyEnd).trim();
    if (!current || CLOSES[kind].some((k) => isSet(current!, k))) {
      current = { thought: '' };
      steps.push(current);
    }
    if (kind === 'thought') current.thought = body;
    else current[kind] = body;
  });
  const last = steps[steps.length - 1];
  // The agent's transcript ends with "Thought: " while it waits for the model: not a step yet.
  if (last && !last.thought && Object.keys(last).length === 1) steps.pop();
  return steps;
}

export interface ReactPiece {
  part: ReactPart;
  text: string;
}

const PART_OF: Record<Kind, ReactPart> = {
  thought: 'thought',
  action: 'action',
  actionInput: 'action-input',
  observation: 'observation',
  finalAnswer: 'answer',
};

/**
 * A whole transcript cut into pieces, each tagged with the part of a step it belongs to; the pieces' texts joined
 * are the transcript. The same reading as parseReactSteps: text before the first marker is a thought, a marker
 * runs from its line start to its colon, and the spacing around each part's text is markup.
 */
export function reactPieces(transcript: string): ReactPiece[] {
  const pieces: ReactPiece[] = [];
  const add = (part: ReactPart, text: string) => {
    if (!text) return;
    const last = pieces[pieces.length - 1];
    if (last?.part === part) last.text += text;
    else pieces.push({ part, text });
  };
  const body = (part: ReactPart, text: string) => {
    const lead = /^\s*/.exec(text)![0].length;
    const trail = text.length - lead - text.slice(lead).trimEnd().length;
    add('markup', text.slice(0, lead));
    add(part, text.slice(lead, text.length - trail));
    add('markup', text.slice(text.length - trail));
  };
  const marks = [...transcript.matchAll(STEP_MARKER)];
  body('thought', transcript.slice(0, marks[0]?.index ?? transcript.length));
  marks.forEach((m, n) => {
    const end = m.index + m[0].length;
    add('markup', m[0]);
    body(PART_OF[kindOf(m[1] ?? '')], transcript.slice(end, marks[n + 1]?.index ?? transcript.length));
  });
  return pieces;
}

const MARKER_WORDS = ['thought', 'action input', 'action', 'observation', 'final answer'];

/** Whether more text could still make this last line a step marker ("Final Ans" before "wer:"). */
function mayBecomeMarker(line: string): boolean {
  const m = /^[ \t]*([a-z][a-z \t]*)?$/i.exec(line);
  if (!m) return false;
  const words = (m[1] ?? '').toLowerCase().replace(/[ \t]+/g, ' ');
  return MARKER_WORDS.some((w) => w.startsWith(words) || (words.startsWith(w) && !words.slice(w.length).trim()));
}

/**
 * Tags a transcript as it streams. Text is held back only while the parts could still change: the spacing at the
 * end (a part's text or a marker may follow) and a last line that may become a marker. `flush` hands over the rest
 * (at the end of a model call, and after the agent's own additions, which are whole).
 */
export class ReactPartSplitter {
  private transcript = '';
  private handed = 0;

  push(text: string): ReactPiece[] {
    this.transcript += text;
    const t = this.transcript;
    const lineStart = t.lastIndexOf('\n');
    const settled = Math.min(
      t.trimEnd().length,
      mayBecomeMarker(t.slice(lineStart + 1)) ? Math.max(lineStart, 0) : t.length,
    );
    return this.handOver(Math.max(settled, this.handed));
  }

  flush(): ReactPiece[] {
    return this.handOver(this.transcript.length);
  }

  private handOver(until: number): ReactPiece[] {
    if (until <= this.handed) return [];
    const out: ReactPiece[] = [];
    let at = 0;
    for (const piece of reactPieces(this.transcript)) {
      const from = Math.max(at, this.handed);
      const to = Math.min(at + piece.text.length, until);
      if (to > from) out.push({ part: piece.part, text: this.transcript.slice(from, to) });
      at += piece.text.length;
      if (at >= until) break;
    }
    this.handed = until;
    return out;
  }
}
