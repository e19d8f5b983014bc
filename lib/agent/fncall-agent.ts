// FnCallAgent: Qwen-Agent's tool-calling loop.
import type { FunctionDef, Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import { Agent, type CallExtras } from './agent';
import type { RunState } from './run-state';

export class FnCallAgent extends Agent {
  static override readonly kind: AgentKind = 'fncall';

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const clientTools = run.options.clientTools;
    const client = clientTools?.length ? new Set(clientTools.map((f) => f.name)) : undefined;
    const functions = client ? withClientTools(this.functions, clientTools!) : this.functions;
    const extras = this.callExtras(run);
    // A resumed run starts past its copied iterations, which count against the limit too.
    for (let budget = this.maxLlmCalls - run.iteration; budget > 0; budget--) {
      run.signal.throwIfAborted();
      run.iteration++;
      const output = await this.callLlm(messages, functions, run, extras);
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
        run.emit(
          client?.has(c.name)
            ? { type: 'tool-call', functionId: c.functionId, name: c.name, arguments: c.arguments, client: true }
            : { type: 'tool-call', functionId: c.functionId, name: c.name, arguments: c.arguments },
        );
      let handedBack = false;
      for (const call of pending) {
        run.signal.throwIfAborted();
        if (client?.has(call.name)) {
          handedBack = true; // the caller runs it
          continue;
        }
        const content = await this.callTool(call, messages, run);
        messages.push({ role: 'function', name: call.name, content, extra: { function_id: call.functionId } });
      }
      if (handedBack) return 'tool-calls';
    }
    return 'max-iterations';
  }

  /** How each model call of the loop is made (the Router holds back its `Call:` and stops at `Reply:`). */
  protected callExtras(_run: RunState): CallExtras | undefined {
    return undefined;
  }
}

/** The agent's tools with the caller's: a caller's tool replaces an agent's tool of the same name. */
function withClientTools(own: FunctionDef[], client: readonly FunctionDef[]): FunctionDef[] {
  const names = new Set(client.map((f) => f.name));
  return [...own.filter((f) => !names.has(f.name)), ...client];
}
