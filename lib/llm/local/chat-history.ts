// Qwen-Agent messages → node-llama-cpp's chat history, which its chat wrapper renders through the model's own chat
// template. A run of assistant and function messages is one model response: text, thoughts, and each function call
// with its result, as node-llama-cpp records a response that called functions and went on.
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from 'node-llama-cpp';
import { parseJson5 } from '../fncall/json-slice';
import { contentText, type Message } from '../schema';

type ResponseItem = ChatModelResponse['response'][number];

/** A tool's text result as the template gets it: JSON results stay structured, anything else is a string. */
function resultValue(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(t);
    } catch {
      /* not JSON: kept as text */
    }
  }
  return text;
}

function paramsValue(args: string): unknown {
  const parsed = parseJson5(args);
  return parsed.ok ? parsed.value : args;
}

type PendingCall = ChatModelFunctionCall & { functionId?: string };

/**
 * The history ends with a model response: an empty one after a user message (a new answer), or the response the
 * messages leave open (after function results, or a partial assistant message), which generation continues.
 */
export function toChatHistory(messages: readonly Message[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  let response: ResponseItem[] | undefined;
  const open = () => {
    if (!response) {
      response = [];
      history.push({ type: 'model', response });
    }
    return response;
  };
  for (const msg of messages) {
    if (msg.role === 'system' || msg.role === 'user') {
      response = undefined;
      history.push({ type: msg.role, text: contentText(msg.content) });
      continue;
    }
    const items = open();
    if (msg.role === 'assistant') {
      const thought = contentText(msg.reasoning_content);
      if (thought) items.push({ type: 'segment', segmentType: 'thought', text: thought, ended: true });
      const text = contentText(msg.content);
      if (text) {
        const last = items[items.length - 1];
        if (typeof last === 'string') items[items.length - 1] = last + text;
        else items.push(text);
      }
      if (msg.function_call) {
        const call: PendingCall = {
          type: 'functionCall',
          name: msg.function_call.name,
          params: paramsValue(msg.function_call.arguments),
          result: undefined,
        };
        const id = msg.extra?.function_id;
        if (typeof id === 'string') call.functionId = id;
        items.push(call);
      }
      continue;
    }
    // A function result answers the latest call with its id (or the earliest one still waiting).
    const id = msg.extra?.function_id;
    const calls = items.filter((i): i is PendingCall => typeof i !== 'string' && i.type === 'functionCall');
    const waiting = calls.filter((c) => c.result === undefined);
    const target =
      (typeof id === 'string' ? [...waiting].reverse().find((c) => c.functionId === id) : undefined) ?? waiting[0];
    const value = resultValue(contentText(msg.content));
    if (target) target.result = value;
    else items.push({ type: 'functionCall', name: msg.name ?? 'function', params: {}, result: value });
  }
  if (history[history.length - 1]?.type !== 'model') history.push({ type: 'model', response: [] });
  // node-llama-cpp expects a result on every recorded call; functionId is ours alone.
  for (const item of history) {
    if (item.type !== 'model') continue;
    for (const r of item.response) {
      if (typeof r === 'string' || r.type !== 'functionCall') continue;
      const call = r as PendingCall;
      if (call.result === undefined) call.result = '';
      delete call.functionId;
    }
  }
  return history;
}
