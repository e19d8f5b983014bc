/** OpenAI Chat Completions wire shapes: stream chunks, the non-streamed completion, error bodies. */
import type { PlannedReply } from './reply';

export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
}

/** One SSE `data:` payload: a JSON object, or the literal terminator. */
export type StreamEvent = { json: object } | { done: true };

/** Splits by code points so a multi-unit character never straddles two deltas. */
export function splitText(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Arguments longer than 3 characters always go out in at least 3 fragments, so clients must reassemble. */
export function splitArguments(args: string, chunkSize: number): string[] {
  const chars = Array.from(args);
  if (chars.length === 0) return [];
  if (chars.length <= 3) return [args];
  const pieces = Math.max(3, Math.ceil(chars.length / chunkSize));
  const size = Math.ceil(chars.length / pieces);
  return splitText(args, size);
}

function chunk(meta: ResponseMeta, delta: object, finishReason: string | null): object {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    // OpenAI sends `usage: null` on every chunk once include_usage is requested.
    ...(meta.includeUsage ? { usage: null } : {}),
  };
}

export function streamEvents(plan: PlannedReply, meta: ResponseMeta): StreamEvent[] {
  const events: StreamEvent[] = [];
  const push = (delta: object, finish: string | null = null) => events.push({ json: chunk(meta, delta, finish) });

  push({ role: 'assistant', content: '' });
  for (const piece of splitText(plan.reasoning, plan.chunkSize)) push({ reasoning_content: piece });
  for (const piece of splitText(plan.content, plan.chunkSize)) push({ content: piece });
  plan.toolCalls.forEach((call, index) => {
    push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of splitArguments(call.arguments, plan.chunkSize)) {
      push({ tool_calls: [{ index, function: { arguments: piece } }] });
    }
  });
  if (plan.endless) return events; // endlessDelta() goes on from here
  push({}, plan.finishReason);
  if (meta.includeUsage) {
    events.push({
      json: {
        id: meta.id,
        object: 'chat.completion.chunk',
        created: meta.created,
        model: meta.model,
        system_fingerprint: null,
        choices: [],
        usage: plan.usage,
      },
    });
  }
  events.push({ done: true });
  return events;
}

/** The next delta of a reply that never finishes (ScriptedReply.endless): `chunkSize` more characters of its kind. */
export function endlessDelta(plan: PlannedReply, meta: ResponseMeta): StreamEvent {
  const more = 'x'.repeat(plan.chunkSize);
  const delta =
    plan.endless === 'reasoning'
      ? { reasoning_content: more }
      : plan.endless === 'arguments'
        ? { tool_calls: [{ index: Math.max(0, plan.toolCalls.length - 1), function: { arguments: more } }] }
        : { content: more };
  return { json: chunk(meta, delta, null) };
}

/** The event with `⟦t=<now>⟧` after its content delta (see ScriptedReply.stampChunks); others as they are. */
export function stampContent(event: StreamEvent, nowMs: number): StreamEvent {
  if (!('json' in event)) return event;
  const chunk = event.json as { choices?: { delta?: { content?: string } }[] };
  const delta = chunk.choices?.[0]?.delta;
  if (!delta?.content) return event;
  const stamped = { ...chunk.choices![0], delta: { ...delta, content: `${delta.content}⟦t=${nowMs.toFixed(3)}⟧` } };
  return { json: { ...chunk, choices: [stamped] } };
}

export function sseLine(event: StreamEvent): string {
  return 'json' in event ? `data: ${JSON.stringify(event.json)}\n\n` : 'data: [DONE]\n\n';
}

export function completionBody(plan: PlannedReply, meta: ResponseMeta): object {
  const hasCalls = plan.toolCalls.length > 0;
  const message: Record<string, unknown> = {
    role: 'assistant',
    // OpenAI answers null content for a pure tool-call turn.
    content: hasCalls && plan.content === '' ? null : plan.content,
    refusal: null,
  };
  if (plan.reasoning) message.reasoning_content = plan.reasoning;
  if (hasCalls) {
    message.tool_calls = plan.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: null,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
    usage: plan.usage,
  };
}

export function errorBody(message: string, type: string, code: string | null): object {
  return { error: { message, type, param: null, code } };
}

/** Error type/code pairs the way OpenAI labels them, so SDK error classes and retry logic see familiar values. */
export function errorKindForStatus(status: number): { type: string; code: string | null } {
  if (status === 400) return { type: 'invalid_request_error', code: null };
  if (status === 401) return { type: 'invalid_request_error', code: 'invalid_api_key' };
  if (status === 403) return { type: 'invalid_request_error', code: 'permission_denied' };
  if (status === 404) return { type: 'invalid_request_error', code: 'not_found' };
  if (status === 429) return { type: 'requests', code: 'rate_limit_exceeded' };
  if (status >= 500) return { type: 'server_error', code: null };
  return { type: 'invalid_request_error', code: null };
}
