// Small helpers for integration tests: collect a model call or a run.
import type { AgentEvent } from '../../lib/agent';
import type { ChatModel, ChatRequest, LlmCallResult, LlmStreamEvent } from '../../lib/llm/model';

export async function collectChat(
  model: ChatModel,
  req: ChatRequest,
): Promise<{ events: LlmStreamEvent[]; result: LlmCallResult; text: string; reasoning: string }> {
  const events: LlmStreamEvent[] = [];
  const gen = model.chat(req);
  for (;;) {
    const step = await gen.next();
    if (step.done) {
      const text = events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join('');
      const reasoning = events
        .filter((e) => e.type === 'reasoning')
        .map((e) => (e as { text: string }).text)
        .join('');
      return { events, result: step.value, text, reasoning };
    }
    events.push(step.value);
  }
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
