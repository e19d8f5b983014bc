// Prompt and completion content in the shape the GenAI semantic conventions give it (gen_ai.input.messages,
// gen_ai.output.messages: role + parts), as JSON strings: span attributes cannot hold nested objects. Only used when
// OTEL_CAPTURE_CONTENT=1.

type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; result: unknown }
  | { type: 'uri'; modality: 'image'; uri: string };

interface GenAiMessage {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

/** A data: URL would put the whole image into the trace; its header says enough. */
const DATA_URL_KEPT = 64;

/** Tool arguments as an object when they are JSON (as the conventions show them), else the raw text. */
function argumentsValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function contentParts(content: unknown): Part[] {
  if (typeof content === 'string') return content ? [{ type: 'text', content }] : [];
  if (!Array.isArray(content)) return [];
  const parts: Part[] = [];
  for (const item of content as Record<string, unknown>[]) {
    if (item?.type === 'text' && typeof item.text === 'string') parts.push({ type: 'text', content: item.text });
    const url = (item?.image_url as { url?: unknown } | undefined)?.url;
    if (item?.type === 'image_url' && typeof url === 'string') {
      const uri = url.startsWith('data:') && url.length > DATA_URL_KEPT ? `${url.slice(0, DATA_URL_KEPT)}…` : url;
      parts.push({ type: 'uri', modality: 'image', uri });
    }
  }
  return parts;
}

/** One OpenAI wire message (what lib/llm sends: role system/user/assistant/tool) as a GenAI message. */
function fromWire(m: Record<string, unknown>): GenAiMessage {
  const parts: Part[] = [];
  if (typeof m.reasoning_content === 'string' && m.reasoning_content)
    parts.push({ type: 'reasoning', content: m.reasoning_content });
  if (m.role === 'tool') {
    const result = typeof m.content === 'string' ? m.content : contentParts(m.content);
    parts.push({ type: 'tool_call_response', id: String(m.tool_call_id ?? ''), result });
    return { role: 'tool', parts };
  }
  parts.push(...contentParts(m.content));
  for (const call of (m.tool_calls as { id?: string; function?: { name?: string; arguments?: string } }[]) ?? []) {
    parts.push({
      type: 'tool_call',
      id: call.id ?? '',
      name: call.function?.name ?? '',
      arguments: argumentsValue(call.function?.arguments ?? ''),
    });
  }
  return { role: String(m.role), parts };
}

export function inputMessages(wire: readonly Record<string, unknown>[]): string {
  return JSON.stringify(wire.map(fromWire));
}

export interface ModelOutput {
  text: string;
  reasoning: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason?: string;
}

export function outputMessages(out: ModelOutput): string {
  const parts: Part[] = [];
  if (out.reasoning) parts.push({ type: 'reasoning', content: out.reasoning });
  if (out.text) parts.push({ type: 'text', content: out.text });
  for (const c of out.toolCalls)
    parts.push({ type: 'tool_call', id: c.id, name: c.name, arguments: argumentsValue(c.arguments) });
  const message: GenAiMessage = { role: 'assistant', parts };
  if (out.finishReason) message.finish_reason = out.finishReason;
  return JSON.stringify([message]);
}

/** A tool's result as the model got it: its text, or its content items. */
export function toolResult(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content);
}
