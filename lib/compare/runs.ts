// Compare two runs of the same turn (after regenerate, or a replay with another model or an edited tool result):
// the prompt of each iteration (the exact request sent), the sequence of tool calls, their arguments and results,
// and the answers, each with the differences marked. Framework-free; the page renders the result as it is.
import { diffArrays } from 'diff';
import type { StopReason } from '../protocol/enums';
import type { AgentEvent, EventOf, ReplayInfo } from '../protocol/events';
import { diffText, type SideBySide } from './text-diff';

export interface RunDigest {
  runId: string;
  model: string;
  replay?: ReplayInfo;
  stopReason?: StopReason;
  /** Iteration number -> the request sent, rendered as text (one line per field, messages under headers). */
  prompts: Map<number, string>;
  /** The requests of child runs (a Router's helper, a GroupChat's members), in the order they were sent. */
  childPrompts?: { agent: string; iteration: number; text: string }[];
  /** The run's tool calls and its child runs' (`agent` names the child), in the order they were made. */
  toolCalls: {
    iteration: number;
    functionId: string;
    agent?: string;
    name: string;
    arguments: string;
    result?: string;
    ok?: boolean;
  }[];
  answer: string;
}

export interface ToolCallPair {
  /** Position in each run's sequence of calls (the n-th call of each). */
  index: number;
  /** `agent`: the child run that made the call. */
  a?: { iteration: number; name: string; agent?: string };
  b?: { iteration: number; name: string; agent?: string };
  name: SideBySide;
  arguments: SideBySide;
  result: SideBySide;
}

export interface RunComparison {
  a: { runId: string; model: string; stopReason?: StopReason; replay?: ReplayInfo };
  b: { runId: string; model: string; stopReason?: StopReason; replay?: ReplayInfo };
  answer: SideBySide;
  /** The tool names in call order, aligned: 'same' in both, 'del' only in the first run, 'add' only in the second. */
  toolSequence: { op: 'same' | 'del' | 'add'; name: string }[];
  toolCalls: ToolCallPair[];
  /** One entry per iteration either run had; `a`/`b` false when that run did not get that far. Child runs' requests
   *  follow, paired in order per agent (`agent` names it). */
  prompts: { iteration: number; agent?: string; a: boolean; b: boolean; diff: SideBySide }[];
}

/** A run of a turn, to pick two to compare. */
export interface RunChoice {
  id: string;
  /** 1 for the turn's first run, then in order. */
  number: number;
  status: string;
  startedAt: number;
  model: string;
  /** Which run (by number) and iteration it replayed, when it is a replay. */
  replayOf?: { number: number; fromIteration: number };
}

/** The runs of a turn, numbered in order, each with its model and what it replayed, to pick two to compare. */
export function runChoices(
  runs: readonly { id: string; status: string; startedAt: number; events: readonly AgentEvent[] }[],
): RunChoice[] {
  const numbers = new Map(runs.map((r, i) => [r.id, i + 1]));
  return runs.map((r, i): RunChoice => {
    const start = r.events.find((e): e is EventOf<'run-start'> => e.type === 'run-start');
    const choice: RunChoice = {
      id: r.id,
      number: i + 1,
      status: r.status,
      startedAt: r.startedAt,
      model: start?.model ?? '',
    };
    if (start?.replay)
      choice.replayOf = { number: numbers.get(start.replay.of) ?? 0, fromIteration: start.replay.fromIteration };
    return choice;
  });
}

export function digestRun(runId: string, events: readonly AgentEvent[]): RunDigest {
  const digest: RunDigest = { runId, model: '', prompts: new Map(), toolCalls: [], answer: '' };
  walk(digest, events);
  return digest;
}

/** Folds events into the digest; a child run's (wrapped in `child` events) count under its agent's name: its calls,
 *  its requests and its answer text (a Router's helper answers for it, as the page shows). */
function walk(digest: RunDigest, events: readonly AgentEvent[], child?: { agent: string; runId: string }): void {
  const byId = new Map<string, RunDigest['toolCalls'][number]>();
  const inner = new Map<string, { agent: string; events: AgentEvent[] }>();
  for (const e of events) {
    switch (e.type) {
      case 'run-start':
        if (child) break;
        digest.model = e.model;
        if (e.replay) digest.replay = e.replay;
        break;
      case 'llm-start':
        if (!e.request) break;
        if (child)
          (digest.childPrompts ??= []).push({ agent: child.agent, iteration: e.iteration, text: renderRequest(e) });
        else {
          digest.model = e.request.model;
          digest.prompts.set(e.iteration, renderRequest(e));
        }
        break;
      case 'tool-call': {
        const call: RunDigest['toolCalls'][number] = {
          iteration: e.iteration,
          functionId: e.functionId,
          name: e.name,
          arguments: e.arguments,
        };
        if (child) call.agent = child.agent;
        digest.toolCalls.push(call);
        byId.set(`${e.iteration}/${e.functionId}`, call);
        break;
      }
      case 'tool-result': {
        const call = byId.get(`${e.iteration}/${e.functionId}`);
        if (!call) break;
        call.result = typeof e.content === 'string' ? e.content : JSON.stringify(e.content, null, 2);
        call.ok = e.ok;
        call.arguments = e.arguments; // as it ran (after a user's edit)
        break;
      }
      case 'text-delta':
        digest.answer += e.text;
        break;
      case 'run-end':
        if (!child) digest.stopReason = e.reason;
        break;
      case 'child': {
        if (e.aside) break; // a step the run read (ParallelDocQA's readers), not part of its answer or its calls
        // In order: each child's events are folded when its run ends (or the log does), in the order children began.
        const entry = inner.get(e.event.runId) ?? { agent: e.agent, events: [] };
        inner.set(e.event.runId, entry);
        entry.events.push(e.event);
        if (e.event.type === 'run-end') {
          walk(digest, entry.events, { agent: entry.agent, runId: e.event.runId });
          inner.delete(e.event.runId);
        }
        break;
      }
    }
  }
  for (const [id, entry] of inner) walk(digest, entry.events, { agent: entry.agent, runId: id });
}

export function compareRuns(
  a: { runId: string; events: readonly AgentEvent[] },
  b: { runId: string; events: readonly AgentEvent[] },
): RunComparison {
  const da = digestRun(a.runId, a.events);
  const db = digestRun(b.runId, b.events);
  const head = (d: RunDigest) => ({
    runId: d.runId,
    model: d.model,
    ...(d.stopReason ? { stopReason: d.stopReason } : {}),
    ...(d.replay ? { replay: d.replay } : {}),
  });
  const toolSequence = diffArrays(
    da.toolCalls.map((c) => c.name),
    db.toolCalls.map((c) => c.name),
  ).flatMap((c) =>
    c.value.map((name) => ({
      op: c.added ? ('add' as const) : c.removed ? ('del' as const) : ('same' as const),
      name,
    })),
  );
  const toolCalls: ToolCallPair[] = [];
  for (let i = 0; i < Math.max(da.toolCalls.length, db.toolCalls.length); i++) {
    const x = da.toolCalls[i];
    const y = db.toolCalls[i];
    toolCalls.push({
      index: i,
      ...(x ? { a: { iteration: x.iteration, name: x.name, ...(x.agent ? { agent: x.agent } : {}) } } : {}),
      ...(y ? { b: { iteration: y.iteration, name: y.name, ...(y.agent ? { agent: y.agent } : {}) } } : {}),
      name: diffText(x?.name ?? '', y?.name ?? ''),
      arguments: diffText(prettyArgs(x?.arguments), prettyArgs(y?.arguments)),
      result: diffText(x?.result ?? '', y?.result ?? ''),
    });
  }
  const iterations = [...new Set([...da.prompts.keys(), ...db.prompts.keys()])].sort((p, q) => p - q);
  return {
    a: head(da),
    b: head(db),
    answer: diffText(da.answer, db.answer),
    toolSequence,
    toolCalls,
    prompts: [
      ...iterations.map((iteration) => ({
        iteration,
        a: da.prompts.has(iteration),
        b: db.prompts.has(iteration),
        diff: diffText(da.prompts.get(iteration) ?? '', db.prompts.get(iteration) ?? ''),
      })),
      ...childPromptPairs(da, db),
    ],
  };
}

/** The child runs' requests of both runs, paired by agent and by their order within that agent. */
function childPromptPairs(da: RunDigest, db: RunDigest): RunComparison['prompts'] {
  const keyed = (d: RunDigest) => {
    const seen = new Map<string, number>();
    return new Map(
      (d.childPrompts ?? []).map((p) => {
        const n = (seen.get(p.agent) ?? 0) + 1;
        seen.set(p.agent, n);
        return [`${p.agent}\u0000${n}`, { ...p, iteration: n }] as const;
      }),
    );
  };
  const [ka, kb] = [keyed(da), keyed(db)];
  const keys = [...new Set([...ka.keys(), ...kb.keys()])];
  return keys.map((key) => {
    const [x, y] = [ka.get(key), kb.get(key)];
    const { agent, iteration } = (x ?? y)!;
    return { iteration, agent, a: Boolean(x), b: Boolean(y), diff: diffText(x?.text ?? '', y?.text ?? '') };
  });
}

/** The request of one model call as text, so a line diff lines up message by message. */
export function renderRequest(e: EventOf<'llm-start'>): string {
  const r = e.request!;
  const lines = [`model: ${r.model}`, `params: ${JSON.stringify(r.params)}`];
  if (r.stop?.length) lines.push(`stop: ${JSON.stringify(r.stop)}`);
  if (r.tools?.length) lines.push(`tools: ${r.tools.map(toolName).join(', ')}`);
  for (const m of r.messages) {
    lines.push('', `[${String(m.role)}${m.tool_call_id ? ` ${String(m.tool_call_id)}` : ''}]`);
    const content = messageContent(m.content);
    if (content) lines.push(content);
    if (Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls as { function?: { name?: string; arguments?: string } }[]) {
        lines.push(`→ ${c.function?.name ?? '?'}(${c.function?.arguments ?? ''})`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

function toolName(t: Record<string, unknown>): string {
  const fn = t.function as { name?: unknown } | undefined;
  return String(fn?.name ?? t.name ?? '?');
}

function messageContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((p: { type?: string; text?: string }) => (typeof p?.text === 'string' ? p.text : JSON.stringify(p)))
    .join('\n');
}

/** JSON arguments pretty-printed (one key per line diffs well); anything else as it is. */
function prettyArgs(args: string | undefined): string {
  if (args === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}
