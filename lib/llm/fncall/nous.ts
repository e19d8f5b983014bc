// The Nous/Hermes format (Qwen-Agent's default prompt-based tool calling): tools listed as JSON lines inside
// <tools></tools> in the system prompt; the model answers a call with <tool_call>{"name", "arguments"}</tool_call>;
// results go back as user <tool_response> blocks.
import type { FunctionDef, Message } from '../schema';
import {
  appendItems,
  appendText,
  finalize,
  foldTrailingAssistant,
  itemsOf,
  textOf,
  trailingText,
  type Draft,
} from './content';
import { isPlainObject } from '../../protocol/json';
import { extractFn, parseJson5, pyJsonDumps } from './json-slice';
import { functionsToText } from './plain-text';
import type { FncallFormat, ParseOptions, ParseResult, RenderOptions } from './types';

export const TOOL_CALL_OPEN = '<tool_call>';
export const TOOL_CALL_CLOSE = '</tool_call>';
const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

function toolSection(functions: readonly FunctionDef[]): string {
  const lines = functions.map((f) => pyJsonDumps({ type: 'function', function: f })).join('\n');
  return `# Tools

You can use one or more of the functions below to help answer the user.

The signatures of the available functions are given inside <tools></tools> XML tags:
<tools>
${lines}
</tools>

To call a function, write a JSON object with the function's name and its arguments between <tool_call></tool_call> XML tags, like this:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>`;
}

/** `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`; unparsable arguments are embedded as a JSON string. */
export function renderNousCall(name: string, args: string): string {
  const parsed = parseJson5(args);
  const body = pyJsonDumps({ name, arguments: parsed.ok ? parsed.value : args });
  return `${TOOL_CALL_OPEN}\n${body}\n${TOOL_CALL_CLOSE}`;
}

function renderNous(messages: Message[], functions: FunctionDef[], opts: RenderOptions): Message[] {
  if (functions.length === 0 || opts.functionChoice === 'none') {
    return foldTrailingAssistant(functionsToText(messages, opts.lang));
  }
  if (opts.functionChoice !== 'auto') {
    throw new Error(
      `The nous function-calling format cannot force the model to call "${opts.functionChoice}"; ` +
        `use functionChoice 'auto' or 'none', or switch to the qwen format.`,
    );
  }
  const drafts: Draft[] = [];
  for (const msg of messages) {
    const last = drafts[drafts.length - 1];
    if (msg.role === 'system' || msg.role === 'user') {
      drafts.push({ role: msg.role, items: itemsOf(msg.content) });
    } else if (msg.role === 'assistant') {
      const items = itemsOf(msg.content);
      if (msg.function_call) appendText(items, renderNousCall(msg.function_call.name, msg.function_call.arguments));
      if (last?.role === 'assistant') {
        const prevText = trailingText(last.items);
        if (items.length && prevText && !prevText.endsWith('\n')) appendText(last.items, '\n');
        appendItems(last.items, items);
      } else {
        // Only the first reasoning_content of a run of assistant messages survives the merge.
        drafts.push({ role: 'assistant', items, reasoning_content: msg.reasoning_content });
      }
    } else {
      const block: Draft['items'] = [];
      appendText(block, `<tool_response>\n`);
      appendItems(block, itemsOf(msg.content));
      appendText(block, `\n</tool_response>`);
      if (last?.role === 'user') {
        appendText(last.items, '\n');
        appendItems(last.items, block);
      } else {
        drafts.push({ role: 'user', items: block });
      }
    }
  }
  const section = toolSection(functions);
  const first = drafts[0];
  if (first?.role === 'system') appendText(first.items, textOf(first.items) ? `\n\n${section}` : section);
  else drafts.unshift({ role: 'system', items: [{ text: section }] });
  return foldTrailingAssistant(drafts.map(finalize));
}

function callMessage(name: string, args: string, id: number): Message {
  return {
    role: 'assistant',
    content: '',
    function_call: { name, arguments: args },
    extra: { function_id: String(id) },
  };
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

// The nous prompt always allows several calls (upstream's has no single-call variant, and its parser ignores
// parallel_function_calls); only an explicit false keeps just the first call, so that a caller who asked for one call
// gets one.
function parseNous(text: string, opts?: ParseOptions): ParseResult {
  const parsed = parseNousCalls(text);
  if (opts?.parallelFunctionCalls !== false) return parsed;
  const first = parsed.messages.findIndex((m) => m.function_call);
  if (first >= 0 && parsed.messages.length > first + 1) {
    parsed.errors.push(`Parallel calls are off: kept the first call, dropped ${parsed.messages.length - first - 1}.`);
    parsed.messages.splice(first + 1);
  }
  return parsed;
}

function parseNousCalls(text: string): ParseResult {
  const messages: Message[] = [];
  const errors: string[] = [];
  let lead = '';
  let body = text;
  // A think block may still be in the text when the server does not split reasoning out: never parse calls inside it.
  if (text.includes(THINK_OPEN)) {
    const close = text.lastIndexOf(THINK_CLOSE);
    if (close < 0) return { messages: text ? [{ role: 'assistant', content: text }] : [], errors };
    lead = text.slice(0, close + THINK_CLOSE.length);
    body = text.slice(close + THINK_CLOSE.length);
  }
  const segments = body.split(TOOL_CALL_OPEN);
  if (segments.length === 1) {
    const all = lead + body;
    return { messages: all ? [{ role: 'assistant', content: all }] : [], errors };
  }
  const pre = segments[0] ?? '';
  const leadText = lead + (pre.trim() ? pre : '');
  if (leadText) messages.push({ role: 'assistant', content: leadText });

  let nextId = 1;
  for (const segment of segments.slice(1)) {
    if (!segment.trim()) continue;
    const closeAt = segment.indexOf(TOOL_CALL_CLOSE);
    if (closeAt < 0) {
      // Still streaming (or cut off by max_tokens): show a provisional call once the name is complete.
      const { name, args } = extractFn(segment);
      if (name) messages.push(callMessage(name, args, nextId++));
      continue;
    }
    const inner = segment.slice(0, closeAt).trim();
    const tail = segment.slice(closeAt + TOOL_CALL_CLOSE.length);
    if (tail.trim()) errors.push(`Discarded text after ${TOOL_CALL_CLOSE}: "${snippet(tail)}"`);
    const parsed = parseJson5(inner);
    if (!parsed.ok) {
      const { name, args } = extractFn(inner);
      errors.push(
        `Tool call ${nextId} is not valid JSON (${parsed.error}); recovered name "${name}" by slicing the text.`,
      );
      messages.push(callMessage(name, args, nextId++));
      continue;
    }
    const fn = parsed.value;
    if (!isPlainObject(fn) || !('name' in fn) || !('arguments' in fn) || typeof fn.name !== 'string') {
      errors.push(`Dropped a tool call without a string "name" and an "arguments" field: "${snippet(inner)}"`);
      continue;
    }
    messages.push(callMessage(fn.name, pyJsonDumps(fn.arguments ?? null), nextId++)); // upstream: json.dumps(ensure_ascii=False), Python's spacing
  }
  return { messages, errors };
}

export const nousFormat: FncallFormat = {
  name: 'nous',
  toolStartMarker: TOOL_CALL_OPEN,
  stopWords: [],
  render: renderNous,
  parse: parseNous,
};
