/** Resolves a scripted reply against the request it answers: stop sequences, tool-call ids, finish reason, usage. */
import { randomBytes } from 'node:crypto';
import type { ScriptedReply } from '../../lib/protocol/fixture';
import { messageText } from './script';

export interface PlannedToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface PlannedReply {
  content: string;
  reasoning: string;
  toolCalls: PlannedToolCall[];
  finishReason: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
  chunkSize: number;
  delayMs: number;
  ttftMs: number;
  endless?: ScriptedReply['endless'];
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function randomId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

export function stopList(stop: unknown): string[] {
  if (typeof stop === 'string') return stop ? [stop] : [];
  if (Array.isArray(stop)) return stop.filter((s): s is string => typeof s === 'string' && s.length > 0);
  return [];
}

/** Cuts `text` before the earliest occurrence of any stop string, as an inference server would. */
export function applyStop(text: string, stop: string[]): { text: string; stopped: boolean } {
  let cut = -1;
  for (const s of stop) {
    const at = text.indexOf(s);
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  return cut < 0 ? { text, stopped: false } : { text: text.slice(0, cut), stopped: true };
}

function roughTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

function promptChars(body: unknown): number {
  const messages = (body as { messages?: unknown } | null)?.messages;
  let chars = 0;
  if (Array.isArray(messages)) {
    for (const m of messages) chars += messageText((m as { content?: unknown } | null)?.content).length + 16;
  }
  const tools = (body as { tools?: unknown } | null)?.tools;
  if (tools !== undefined) chars += JSON.stringify(tools).length;
  return chars;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function planReply(reply: ScriptedReply, body: any): PlannedReply {
  const { text: content, stopped } = applyStop(reply.content ?? '', stopList(body?.stop));
  const toolCalls = stopped
    ? []
    : (reply.toolCalls ?? []).map((c) => ({ id: c.id ?? randomId('call_'), name: c.name, arguments: c.arguments }));
  const reasoning = reply.reasoning ?? '';
  const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');

  const outChars =
    content.length + reasoning.length + toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const prompt_tokens = reply.usage?.prompt_tokens ?? roughTokens(promptChars(body));
  const completion_tokens = reply.usage?.completion_tokens ?? roughTokens(outChars);

  return {
    content,
    reasoning,
    toolCalls,
    finishReason,
    usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
    chunkSize: Math.max(1, Math.floor(reply.chunkSize ?? 8)),
    delayMs: Math.max(0, reply.delayMs ?? 0),
    ttftMs: Math.max(0, reply.ttftMs ?? 0),
    ...(reply.endless ? { endless: reply.endless } : {}),
  };
}
