// Small helpers for integration tests: collect a model call or a run.
import type { AgentEvent } from '../../lib/agent';
import type { ChatModel, ChatRequest, LlmCallResult, LlmStreamEvent } from '../../lib/llm/model';

export async function collectChat(
  model: ChatModel,
  req: ChatRequest,
): Promise<{ events: LlmStreamEvent[]; result: LlmCallResult; text: string; reasoning: string }> {
  const events: LlmStreamEvent[] = [];
  const result = await model.chat(req, (e) => events.push(e));
  const joined = (type: 'text' | 'reasoning') =>
    events
      .filter((e): e is Extract<LlmStreamEvent, { type: typeof type }> => e.type === type)
      .map((e) => e.text)
      .join('');
  return { events, result, text: joined('text'), reasoning: joined('reasoning') };
}

export async function collectEvents(gen: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

export function ofType<T extends AgentEvent['type']>(
  events: AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}
