// FnCallAgent: Qwen-Agent's tool-calling loop.
import type { BaseTool } from '../../tools';
import type { FunctionDef, Message } from '../llm/schema';
import type { AgentKind, FncallMode, StopReason } from '../protocol/enums';
import { Agent, type CallExtras } from './agent';
import type { RunState, ToolChoice } from './run-state';

export class FnCallAgent extends Agent {
  static override readonly kind: AgentKind = 'fncall';

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    const clientTools = run.options.clientTools;
    const offered = clientTools?.length ? withClientTools(this.functions, clientTools) : this.functions;
    const choice = run.options.toolChoice ?? 'auto';
    const functions = offeredFor(choice, offered);
    const offeredClient = clientTools?.filter((f) => functions.some((o) => o.name === f.name)) ?? [];
    const client = offeredClient.length ? new Set(offeredClient.map((f) => f.name)) : undefined;
    // A call of a tool the run did not offer (the model named another anyway) is not run.
    const tools =
      choice === 'auto' ? this.functionMap : choice === 'none' ? new Map() : onlyOffered(this.functionMap, functions);
    // 'none' is upstream's function_choice 'none' on every call: no tools sent, and a call the server makes anyway
    // dropped by the model layer.
    const extras = choice === 'none' ? withChoice(this.callExtras(run), 'none') : this.callExtras(run);
    // The first call is made to call a tool when the run says so; the later ones may answer (else a forced call
    // would repeat until the call limit).
    const forced = forcedChoice(choice, this.llm.fncallMode);
    let next = forced ? withChoice(extras, forced) : extras;
    // A resumed run starts past its copied iterations, which count against the limit too.
    for (let budget = this.maxLlmCalls - run.iteration; budget > 0; budget--) {
      run.signal.throwIfAborted();
      run.iteration++;
      const output = await this.callLlm(messages, functions, run, next);
      next = extras;
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
        const content = await this.callTool(call, messages, run, tools);
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

/** The tools a run's tool choice concerns: only the named one, or all ('none' tells the model none of them). */
function offeredFor(choice: ToolChoice, functions: FunctionDef[]): FunctionDef[] {
  if (typeof choice !== 'object') return functions;
  const named = functions.filter((f) => f.name === choice.name);
  if (!named.length)
    throw new Error(
      `toolChoice names "${choice.name}", which is not one of the tools (${functions.map((f) => f.name).join(', ') || 'none'}).`,
    );
  return named;
}

/** The function_choice that makes the first call call a tool, if the run asks for one. The nous template cannot
 *  force a call (as upstream's): there, offering only the named tool is what the choice does. */
function forcedChoice(choice: ToolChoice, mode: FncallMode): string | undefined {
  if (choice === 'required') return 'required';
  if (typeof choice === 'object' && mode !== 'nous') return choice.name;
  return undefined;
}

function onlyOffered(all: ReadonlyMap<string, BaseTool>, offered: FunctionDef[]): Map<string, BaseTool> {
  const names = new Set(offered.map((f) => f.name));
  return new Map([...all].filter(([name]) => names.has(name)));
}

function withChoice(extras: CallExtras | undefined, functionChoice: string): CallExtras {
  return { ...extras, cfg: { ...extras?.cfg, function_choice: functionChoice } };
}

/** The agent's tools with the caller's: a caller's tool replaces an agent's tool of the same name. */
function withClientTools(own: FunctionDef[], client: readonly FunctionDef[]): FunctionDef[] {
  const names = new Set(client.map((f) => f.name));
  return [...own.filter((f) => !names.has(f.name)), ...client];
}
