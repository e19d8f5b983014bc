// One tool call of an agent's loop: the user's decision first when the run pauses before tools, then the tool
// itself, reported as tool-approval and tool-result events. Unknown tools and tool failures become text for the
// model; a ToolServiceError is fatal and ends the run.
import { withoutPaths } from '../llm/error-report';
import {
  isToolServiceError,
  runTool,
  unknownToolResult,
  type BaseTool,
  type ToolContext,
  type ToolSettings,
} from '../../tools';
import { collectFileRefs } from '../llm/upload-info';
import { whenAborted } from '../llm/run-signal';
import type { Message } from '../llm/schema';
import type { ToolDecision, Unstamped } from '../protocol/events';
import type { RunState, ToolCall } from './run-state';
import { withFileImages } from './tool-images';

/** What the model is given for a call the user skipped. */
export const SKIPPED_BY_USER = 'The user skipped this tool call; it was not run.';
/** What the model is given for a call the run was stopped during (then what the stop did, when the tool says). */
export const STOPPED_WHILE_RUNNING = 'The run was stopped while this call was running; it did not finish.';

type ToolResult = Unstamped<'tool-result'>;

/**
 * Runs `call` with the tools of the agent and returns what the model gets back. `messages` is the loop's history:
 * a call the user edited is shown there with the arguments it ran with.
 */
export async function executeToolCall(
  call: ToolCall,
  tools: ReadonlyMap<string, BaseTool>,
  messages: Message[],
  run: RunState,
  agent: { files: readonly string[]; toolSettings: ToolSettings },
): Promise<ToolResult['content']> {
  let decision: ToolDecision | undefined;
  let args = call.arguments;
  const beforeTool = run.options.beforeTool;
  if (beforeTool) {
    run.emit({ type: 'tool-approval', functionId: call.functionId, name: call.name, arguments: call.arguments });
    decision = await untilAborted(beforeTool(call, run.options.runId), run.signal);
    run.emit({ type: 'tool-decision', functionId: call.functionId, name: call.name, decision });
    if (decision.action === 'run' && decision.arguments !== undefined) {
      args = decision.arguments;
      setCallArguments(messages, call.functionId, args);
    }
  }
  const started = performance.now();
  run.toolCalls++;
  const report = (result: Pick<ToolResult, 'ok' | 'content' | 'error' | 'files'>): ToolResult['content'] => {
    const event: ToolResult = {
      type: 'tool-result',
      functionId: call.functionId,
      name: call.name,
      arguments: args,
      ok: result.ok,
      content: result.content,
      durationMs: performance.now() - started,
    };
    if (result.error) event.error = result.error;
    if (result.files?.length) event.files = result.files;
    run.emit(event);
    return result.content;
  };
  if (decision?.action === 'skip') return report({ ok: true, content: SKIPPED_BY_USER });
  if (decision?.action === 'supply') return report({ ok: true, content: decision.content });
  const tool = tools.get(call.name);
  if (!tool) {
    const content = unknownToolResult(call.name);
    const error = { kind: 'unknown-tool', message: content, type: 'UnknownTool' } as const;
    return report({ ok: false, content, error: { ...error, code: 'tool-call-unknown', values: { tool: call.name } } });
  }
  let stopNote: string | undefined;
  const ctx: ToolContext = {
    signal: run.signal,
    files: tool.fileAccess ? [...new Set([...collectFileRefs(messages), ...agent.files])] : [],
    workDir: run.options.workDir,
    conversationId: run.options.conversationId,
    uploadAccess: run.options.uploadAccess,
    lang: run.lang,
    messages,
    emit: (e) => run.emit({ ...e, by: 'tool', functionId: call.functionId }),
    setStopNote: (note) => (stopNote = note),
    settings: agent.toolSettings,
  };
  let running = false;
  try {
    // A tool that does not heed its signal (an MCP server's, a plugin's) still lets a stopped run end at once.
    run.signal.throwIfAborted();
    running = true;
    const r = await untilAborted(runTool(tool, args, ctx), run.signal);
    const content = run.options.generateCfg?.tool_images === true ? withFileImages(r.content, r.files) : r.content;
    return report({ ...r, content });
  } catch (e) {
    if (isToolServiceError(e)) {
      const message = withoutPaths(e.message);
      report({ ok: false, content: message, error: { kind: 'fatal', message, type: e.name } });
    } else if (running && run.signal.aborted) {
      // The call ran: its result says it was stopped (and what that did), for the page and the next turn's model.
      const content = stopNote ? `${STOPPED_WHILE_RUNNING} ${stopNote}` : STOPPED_WHILE_RUNNING;
      report({ ok: false, content, error: { kind: 'stopped', message: content, type: 'Stopped' } });
    }
    throw e;
  }
}

/** `promise`, unless the run is stopped first: a run waiting for a decision or a connecting MCP server must still
 *  stop at once. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const forget = whenAborted(signal, () => reject(signal.reason));
    promise.then(
      (value) => {
        forget();
        resolve(value);
      },
      (e: unknown) => {
        forget();
        reject(e);
      },
    );
  });
}

/** Shows an edited call with the arguments it ran with, in the history the model sees next. */
function setCallArguments(messages: Message[], functionId: string, args: string): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.function_call && m.extra?.function_id === functionId) {
      messages[i] = { ...m, function_call: { ...m.function_call, arguments: args } };
      return;
    }
  }
}
