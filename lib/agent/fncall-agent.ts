// FnCallAgent: Qwen-Agent's tool-calling loop.
import type { Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import { Agent } from './agent';
import type { RunState } from './run-state';

export class FnCallAgent extends Agent {
  static override readonly kind: AgentKind = 'fncall';

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const functions = this.functions;
    // A resumed run starts past its copied iterations, which count against the limit too.
    for (let budget = this.maxLlmCalls - run.iteration; budget > 0; budget--) {
      run.signal.throwIfAborted();
      run.iteration++;
      const output = await this.callLlm(messages, functions, run);
      messages.push(...output.messages);
      const calls = output.messages.filter((m) => m.function_call);
      if (!calls.length) return 'answered';
      // Every call of one response is announced first (the page shows them queued), then they run in order and
      // their results follow all the calls, as upstream orders the history.
      const pending = calls.map((m) => ({
        functionId: typeof m.extra?.function_id === 'string' && m.extra.function_id ? m.extra.function_id : '1',
        name: m.function_call!.name,
        arguments: m.function_call!.arguments,
      }));
      for (const c of pending)
        run.emit({ type: 'tool-call', functionId: c.functionId, name: c.name, arguments: c.arguments });
      for (const call of pending) {
        run.signal.throwIfAborted();
        const content = await this.callTool(call, messages, run);
        messages.push({ role: 'function', name: call.name, content, extra: { function_id: call.functionId } });
      }
    }
    return 'max-iterations';
  }
}
