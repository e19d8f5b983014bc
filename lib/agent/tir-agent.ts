// TIRMathAgent: Qwen-Agent's tool-integrated reasoning for maths. The model reasons in text and writes ```python
// blocks; each model call stops where the block's output would begin ("```output"), the last complete block of that
// call runs in python_executor (a fresh sandboxed interpreter per block), and its output is appended to the answer
// as an ```output block that the next call continues from. The whole answer is one transcript message, as upstream
// yields it; each executed block also shows as a python_executor tool call in the trace.
import { PYTHON_EXECUTOR, PythonExecutor } from '../../tools/python-executor';
import { contentText, type Message } from '../llm/schema';
import type { AgentKind, StopReason } from '../protocol/enums';
import type { AgentOptions } from './agent';
import { FnCallAgent } from './fncall-agent';
import type { RunState } from './run-state';

/** Where a code block's output starts: the model stops here, and the executed output is appended under it. */
export const OBS_START = '```output';
const OBS_END = '\n```\n';

/** Upstream's model-call limit for this agent (its own, lower than the general MAX_LLM_CALL_PER_RUN). */
export const TIR_MAX_LLM_CALLS = 10;

/** TIRMathAgent runs python_executor only (upstream takes no function list). */
export type TIRMathAgentOptions = Omit<AgentOptions, 'functionList'>;

/**
 * The code of the last complete ```python block of `text` (with `lastOnly` false, all of them, each after a
 * "# ========" line), or '' when there is none or the last one is not closed yet.
 */
export function extractProgram(text: string, lastOnly = true): string {
  let program = '';
  let inBlock = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```python') || line.endsWith('```python')) {
      program = lastOnly ? '' : `${program}\n# ========\n`;
      inBlock = true;
    } else if (line.startsWith('```')) inBlock = false;
    else if (inBlock) program += `${line}\n`;
  }
  return inBlock ? '' : program;
}

/** What the model reads of an execution: the printed result when it ran ("Done"), else the error report. */
export function observationOf(content: string): string {
  try {
    const pair: unknown = JSON.parse(content);
    if (Array.isArray(pair) && pair.length && pair.every((x): x is string => typeof x === 'string'))
      return (pair[pair.length - 1] === 'Done' ? pair[0]! : pair[pair.length - 1]!).trim();
  } catch {
    // not the executor's pair (a failure's text): told as it is
  }
  return content.trim();
}

export class TIRMathAgent extends FnCallAgent {
  static override readonly kind: AgentKind = 'tir';

  constructor(opts: TIRMathAgentOptions) {
    super({ ...opts, functionList: [new PythonExecutor()], maxLlmCalls: opts.maxLlmCalls ?? TIR_MAX_LLM_CALLS });
  }

  protected override async loop(messages: Message[], run: RunState): Promise<StopReason> {
    // The model sees text only; its answer so far goes back as the last assistant message, which it continues.
    const prompt: Message[] = messages.map((m) =>
      typeof m.content === 'string' ? m : { ...m, content: contentText(m.content) },
    );
    let response = '';
    for (let budget = this.maxLlmCalls; budget > 0; budget--) {
      run.signal.throwIfAborted();
      run.iteration++;
      const output = await this.callLlm(prompt, [], run, { cfg: { stop: [OBS_START] } });
      const said = output.messages
        .filter((m) => !m.function_call)
        .map((m) => contentText(m.content))
        .join('');
      if (!said) return 'answered';
      response += said;
      const program = extractProgram(said);
      if (!program) return 'answered';
      const call = {
        functionId: String(run.iteration),
        name: PYTHON_EXECUTOR,
        arguments: JSON.stringify({ code: program }),
      };
      run.emit({ type: 'tool-call', ...call });
      const content = await this.callTool(call, prompt, run);
      const observation = observationOf(typeof content === 'string' ? content : contentText(content));
      const appended = `${response.endsWith('\n') ? '' : '\n'}${OBS_START}\n${observation}${OBS_END}`;
      response += appended;
      run.emit({ type: 'text-delta', text: appended });
      const current: Message = { role: 'assistant', content: response };
      if (prompt[prompt.length - 1]?.role === 'assistant') prompt[prompt.length - 1] = current;
      else prompt.push(current);
    }
    return 'max-iterations';
  }
}
