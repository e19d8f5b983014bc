// quickChatOai: Qwen-Agent's BaseChatModel.quick_chat_oai, a call in OpenAI's shapes. OpenAI chat messages and
// tools go in; the answer comes back as OpenAI's `{choices: [{message}], usage}`, one snapshot per streamed piece,
// the last one complete. It is a function of the model here (upstream has it as a method of every model class).
import type { ChatModel, LlmStreamEvent } from './model';
import type { FunctionDef, Message } from './schema';

/** An OpenAI chat message as a caller writes it (loosely: upstream's dicts). */
export interface OaiChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: Message['content'] | null;
  reasoning_content?: string | null;
  name?: string;
  tool_calls?: { id?: string; type?: 'function'; function: { name: string; arguments: string } }[] | null;
  tool_call_id?: string;
}

export interface OaiTool {
  type: 'function';
  function: FunctionDef;
}

/** The answer as OpenAI's non-streaming response holds it. Usage is zero, as upstream reports it. */
export interface OaiChatResponse {
  choices: [
    {
      message: {
        role: 'assistant';
        content: string;
        reasoning_content: string;
        tool_calls: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
      };
    },
  ];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/**
 * OpenAI messages -> Qwen-Agent messages, as upstream converts them: an assistant message's text, reasoning and
 * each tool call become messages of their own; a tool message becomes a function message named by its `name`, else
 * by the call its tool_call_id answers. Ids are kept as function_id, so a model on OpenAI's tools API pairs each
 * result with its call.
 */
export function fromOaiMessages(messages: readonly OaiChatMessage[]): Message[] {
  const out: Message[] = [];
  const callNames = new Map<string, string>();
  messages.forEach((m, i) => {
    const content = m.content ?? '';
    if (m.role === 'system' || m.role === 'user') {
      out.push(m.name ? { role: m.role, content, name: m.name } : { role: m.role, content });
    } else if (m.role === 'assistant') {
      if (content.length) out.push({ role: 'assistant', content });
      if (m.reasoning_content) out.push({ role: 'assistant', content: '', reasoning_content: m.reasoning_content });
      for (const call of m.tool_calls ?? []) {
        const msg: Message = { role: 'assistant', content: '', function_call: { ...call.function } };
        if (call.id) {
          callNames.set(call.id, call.function.name);
          msg.extra = { function_id: call.id };
        }
        out.push(msg);
      }
    } else if (m.role === 'tool') {
      const name = m.name ?? (m.tool_call_id !== undefined ? callNames.get(m.tool_call_id) : undefined);
      if (name === undefined)
        throw new Error(`messages[${i}]: a tool message needs a name or the tool_call_id of an earlier tool call.`);
      const msg: Message = { role: 'function', name, content };
      if (m.tool_call_id) msg.extra = { function_id: m.tool_call_id };
      out.push(msg);
    } else {
      throw new Error(`messages[${i}]: role must be system, user, assistant or tool (got ${JSON.stringify(m.role)}).`);
    }
  });
  return out;
}

/** Qwen-Agent messages of one answer -> OpenAI's response; calls without an id are numbered from 1, as upstream. */
export function toOaiResponse(messages: readonly Message[]): OaiChatResponse {
  const message: OaiChatResponse['choices'][0]['message'] = {
    role: 'assistant',
    content: '',
    reasoning_content: '',
    tool_calls: [],
  };
  for (const m of messages) {
    if (typeof m.reasoning_content === 'string') message.reasoning_content += m.reasoning_content;
    if (typeof m.content === 'string') message.content += m.content;
    if (m.function_call) {
      const id = typeof m.extra?.function_id === 'string' ? m.extra.function_id : String(message.tool_calls.length + 1);
      message.tool_calls.push({ id, type: 'function', function: { ...m.function_call } });
    }
  }
  return { choices: [{ message }], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } };
}

/**
 * One model call in OpenAI's shapes. Yields a snapshot of the answer so far at each streamed piece of text or
 * reasoning, then the complete answer (tool calls included) last:
 *
 *   let last;
 *   for await (const response of quickChatOai(llm, messages, tools)) last = response;
 *   messages.push(last.choices[0].message);
 */
export async function* quickChatOai(
  llm: ChatModel,
  messages: readonly OaiChatMessage[],
  tools?: readonly OaiTool[],
  opts: { signal?: AbortSignal } = {},
): AsyncGenerator<OaiChatResponse> {
  const request = {
    messages: fromOaiMessages(messages),
    signal: opts.signal,
    functions: tools?.map((t) => t.function),
  };
  let reasoning = '';
  let text = '';
  const pending: OaiChatResponse[] = [];
  let wake: (() => void) | undefined;
  const onEvent = (e: LlmStreamEvent) => {
    if (e.type !== 'text' && e.type !== 'reasoning') return;
    if (e.type === 'text') text += e.text;
    else reasoning += e.text;
    pending.push(toOaiResponse([{ role: 'assistant', content: text, reasoning_content: reasoning }]));
    wake?.();
  };
  let settled = false;
  const call = llm.chat(request, onEvent).finally(() => {
    settled = true;
    wake?.();
  });
  call.catch(() => {}); // awaited below; this only keeps an early failure from being reported as unhandled
  while (!settled || pending.length) {
    if (!pending.length) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    while (pending.length) yield pending.shift()!;
  }
  yield toOaiResponse((await call).messages);
}
