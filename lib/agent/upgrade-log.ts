// Run logs written before the events carried their final facts, read as today's events. Until then a run-start
// named the agent's class (`kind: 'react'`) instead of its kind, a tool-result left the arguments it ran
// with to be worked out (the call's, or the user's edit in `decision`), a tool-result carried the user's decision on its paused
// call (now a tool-decision event before it), and a ReAct run's text-delta events were
// the bare transcript, which every reader parsed again; the model layer coded some errors outside the shared codes
// (a model server nothing answered at was `connection`, now `model-unreachable`; `local_model`, `'400'`…); and a
// ReAct reply without a tool call or a Final Answer was a thought only. A log of today's shape comes back as it is.
import { reactPieces } from '../llm/fncall/react-format';
import { AGENT_KIND_NAMES, type AgentKind } from '../protocol/enums';
import type { AgentEvent } from '../protocol/events';
import type { ErrorCode } from '../protocol/errors';
import { isPlainObject } from '../protocol/json';

type Raw = Record<string, unknown>;

const KIND_BY_NAME = new Map(Object.entries(AGENT_KIND_NAMES).map(([kind, name]) => [name, kind as AgentKind]));

/** One run's events as stored (or exported), in today's shape. Entries that are not events are left for the
 *  schema to report. */
export function upgradeRunLog(events: readonly unknown[]): AgentEvent[] {
  return withPlainReplies(withSharedErrorCodes(withDecisionEvents(withKindsAndArguments(events)))) as AgentEvent[];
}

/** Until a ReAct reply with neither a tool call nor a Final Answer was the answer (plainReply), its step held the
 *  reply as its thought alone, and the page showed no answer: such a step (only those had neither an action nor a
 *  final answer) now says the reply is the answer. */
function withPlainReplies(events: readonly unknown[]): readonly unknown[] {
  return events.some(oldPlainReply) ? events.map(asPlainReply) : events;
}

function oldPlainReply(e: unknown): boolean {
  if (!isPlainObject(e)) return false;
  if (e.type === 'child') return oldPlainReply(e.event);
  return e.type === 'react-step' && e.action === undefined && e.finalAnswer === undefined;
}

function asPlainReply(e: unknown): unknown {
  if (!oldPlainReply(e)) return e;
  const event = e as Raw;
  if (event.type === 'child') return { ...event, event: asPlainReply(event.event) };
  return { ...event, thought: '', finalAnswer: String(event.thought ?? ''), plainReply: true };
}

/** Codes the model layer wrote before its codes were the shared ones (ERROR_CODES), each with today's code and the
 *  values its sentence fills in, read from the English message (a child run's without the child's name before it). */
const OLD_CODES: Record<string, (message: string) => { code: ErrorCode; values: Raw }> = {
  // A model server nothing answered at: its words in the English message only.
  connection: (m) => ({ code: 'model-unreachable', values: { detail: after(m, 'Cannot reach the model server: ') } }),
  local_model: (m) => ({ code: 'local-model-failed', values: { detail: after(m, 'The local model failed: ') } }),
  local_model_load: (m) => {
    const [, model, detail] = /^The local model (.*?) could not be loaded: ([\s\S]*)$/.exec(m) ?? [m, '', m];
    return { code: 'local-model-load-failed', values: { model, detail } };
  },
  // Bad input to the model layer (Qwen-Agent's code '400'): the message is all it says.
  '400': (m) => ({ code: 'model-input-invalid', values: { detail: m } }),
  tools_refused: (m) => {
    const [, detail] = /^The model server refused native tool calls \(([\s\S]*)\); the tools now go/.exec(m) ?? [m, m];
    return { code: 'tools-refused', values: { detail } };
  },
};

function after(message: string, prefix: string): string {
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/** Errors coded before their codes were the shared ones (OLD_CODES), read as today's. */
function withSharedErrorCodes(events: readonly unknown[]): readonly unknown[] {
  return events.some(oldCoded) ? events.map(recoded) : events;
}

function oldCoded(e: unknown): boolean {
  if (!isPlainObject(e)) return false;
  if (e.type === 'child') return oldCoded(e.event);
  return isPlainObject(e.error) && Object.hasOwn(OLD_CODES, String(e.error.code));
}

function recoded(e: unknown): unknown {
  if (!oldCoded(e)) return e;
  const event = e as Raw;
  if (event.type === 'child') return { ...event, event: recoded(event.event) };
  const error = event.error as Raw;
  // A child run's error starts with the child's name (`agent`), then ": ".
  const message = String(error.message ?? '');
  const own = typeof error.agent === 'string' ? message.slice(error.agent.length + 2) : message;
  return { ...event, error: { ...error, ...OLD_CODES[String(error.code)]!(own) } };
}

function withKindsAndArguments(events: readonly unknown[]): readonly unknown[] {
  const start = events.find((e): e is Raw => isPlainObject(e) && e.type === 'run-start');
  if (!start || typeof start.kind === 'string') return events;
  const kind: AgentKind = KIND_BY_NAME.get(String(start.agentType)) ?? 'agent';
  const calls = new Map<string, string>();
  const out: unknown[] = [];
  for (const e of events) {
    if (!isPlainObject(e)) {
      out.push(e);
      continue;
    }
    if (e === start) {
      const { agentType: _agentType, ...rest } = e;
      out.push({ ...rest, kind });
    } else if (e.type === 'tool-call') {
      calls.set(`${String(e.iteration)}/${String(e.functionId)}`, String(e.arguments ?? ''));
      out.push(e);
    } else if (e.type === 'tool-result' && typeof e.arguments !== 'string') {
      out.push({ ...e, arguments: ranWith(e, calls.get(`${String(e.iteration)}/${String(e.functionId)}`)) });
    } else out.push(e);
  }
  return kind === 'react' ? withReactParts(out) : out;
}

/** Until the user's decision on a paused call was its own event (tool-decision), the call's tool-result carried it:
 *  it is told where it was taken, just before that result. */
function withDecisionEvents(events: readonly unknown[]): readonly unknown[] {
  if (!events.some((e) => isPlainObject(e) && e.type === 'tool-result' && 'decision' in e)) return events;
  return events.flatMap((e) => {
    if (!isPlainObject(e) || e.type !== 'tool-result' || !('decision' in e)) return [e];
    const { decision, ...result } = e;
    const t = Math.max(0, Number(e.t) - Number(e.durationMs ?? 0));
    const { runId, iteration, functionId, name } = e;
    return [{ type: 'tool-decision', runId, iteration, t, functionId, name, decision }, result];
  });
}

function ranWith(result: Raw, called: string | undefined): string {
  const decision = result.decision;
  if (isPlainObject(decision) && decision.action === 'run' && typeof decision.arguments === 'string')
    return decision.arguments;
  return called ?? '';
}

/** The transcript's text-delta events cut where its parts change, each piece saying its part. */
function withReactParts(events: unknown[]): unknown[] {
  const deltas = events.filter((e): e is Raw => isPlainObject(e) && e.type === 'text-delta');
  const pieces = reactPieces(deltas.map((e) => String(e.text ?? '')).join(''));
  let piece = 0;
  let offset = 0; // into pieces[piece]
  const out: unknown[] = [];
  for (const e of events) {
    if (!isPlainObject(e) || e.type !== 'text-delta') {
      out.push(e);
      continue;
    }
    let text = String(e.text ?? '');
    if (!text) out.push({ ...e, part: 'markup' });
    while (text) {
      const p = pieces[piece]!;
      const take = Math.min(text.length, p.text.length - offset);
      out.push({ ...e, text: text.slice(0, take), part: p.part });
      text = text.slice(take);
      offset += take;
      if (offset === p.text.length) {
        piece++;
        offset = 0;
      }
    }
  }
  return out;
}
