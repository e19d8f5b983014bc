// The legacy Qwen ✿ format (fncall_prompt_type 'qwen'): the model writes "✿FUNCTION✿: name\n✿ARGS✿: args", stops at
// ✿RESULT✿, and the results are written back into the SAME assistant message, so a multi-step turn is one message
// the model keeps continuing.
import type { FunctionDef, Lang, Message } from '../schema';
import {
  appendItems,
  appendText,
  finalize,
  foldTrailingAssistant,
  itemsOf,
  setTrailingText,
  textOf,
  trailingText,
  type Draft,
} from './content';
import { pyJsonDumps } from './json-slice';
import { functionsToText } from './plain-text';
import type { FncallFormat, ParseOptions, ParseResult, RenderOptions } from './types';

export const FN_NAME = '✿FUNCTION✿';
export const FN_ARGS = '✿ARGS✿';
export const FN_RESULT = '✿RESULT✿';
export const FN_EXIT = '✿RETURN✿';
const SPECIAL = [FN_NAME, FN_ARGS, FN_RESULT, FN_EXIT] as const;

type ToolDef = FunctionDef & { name_for_human?: unknown; name_for_model?: unknown; args_format?: unknown };

const TEXT = {
  en: {
    heading: '# Tools\n\n## Tools you can use:',
    paramsLabel: 'Parameters: ',
    jsonArgs: 'The input must be a JSON object.',
    codeArgs: 'Put the code in a Markdown code block fenced with triple backticks (```).',
    single: (
      names: string,
    ) => `## To use a tool, add the lines below to your reply; you may do so as often as you need, or not at all:

${FN_NAME}: the tool to use, one of [${names}]
${FN_ARGS}: the input for the tool
${FN_RESULT}: what the tool returned
${FN_EXIT}: your reply, based on the tool results; show images as ![](url)`,
    parallel: (names: string) => `## To call N tools at once, add the lines below to your reply:

${FN_NAME}: name of tool 1, one of [${names}]
${FN_ARGS}: input for tool 1
${FN_NAME}: name of tool 2
${FN_ARGS}: input for tool 2
...
${FN_NAME}: name of tool N
${FN_ARGS}: input for tool N
${FN_RESULT}: result of tool 1
${FN_RESULT}: result of tool 2
...
${FN_RESULT}: result of tool N
${FN_EXIT}: your reply, based on the tool results; show images as ![](url)`,
  },
  zh: {
    heading: '# 工具\n\n## 可以使用的工具：',
    paramsLabel: '输入参数：',
    jsonArgs: '输入须为一个JSON对象。',
    codeArgs: '请把代码放进Markdown代码块（用三个反引号包围）。',
    single: (names: string) => `## 需要使用工具时，请在回复中写出下面几行，可以不用，也可以按需多次使用：

${FN_NAME}: 要使用的工具名，取值为[${names}]中的一个
${FN_ARGS}: 传给工具的输入
${FN_RESULT}: 工具返回的内容
${FN_EXIT}: 结合工具结果作答，图片请写成![](url)`,
    parallel: (names: string) => `## 需要同时调用N个工具时，请在回复中写出下面几行：

${FN_NAME}: 第1个工具的名称，取值为[${names}]中的一个
${FN_ARGS}: 第1个工具的输入
${FN_NAME}: 第2个工具的名称
${FN_ARGS}: 第2个工具的输入
...
${FN_NAME}: 第N个工具的名称
${FN_ARGS}: 第N个工具的输入
${FN_RESULT}: 第1个工具的结果
${FN_RESULT}: 第2个工具的结果
...
${FN_RESULT}: 第N个工具的结果
${FN_EXIT}: 结合工具结果作答，图片请写成![](url)`,
  },
} as const;

function modelName(f: ToolDef): string {
  return typeof f.name_for_model === 'string' && f.name_for_model ? f.name_for_model : f.name;
}

/** `### <name_for_human>\n\n<name>: <description> Parameters: <JSON> <args_format>` */
export function describeQwenTool(f: ToolDef, lang: Lang): string {
  const t = TEXT[lang];
  const name = modelName(f);
  const human = typeof f.name_for_human === 'string' && f.name_for_human ? f.name_for_human : f.name;
  const argsFormat =
    typeof f.args_format === 'string' ? f.args_format : name === 'code_interpreter' ? t.codeArgs : t.jsonArgs;
  return `### ${human}\n\n${name}: ${f.description} ${t.paramsLabel}${pyJsonDumps(f.parameters)} ${argsFormat}`.trimEnd();
}

function toolSection(functions: readonly ToolDef[], lang: Lang, parallel: boolean): string {
  const t = TEXT[lang];
  const descs = functions.map((f) => describeQwenTool(f, lang)).join('\n\n');
  const names = functions.map(modelName).join(',');
  return `${t.heading}\n\n${descs}\n\n${parallel ? t.parallel(names) : t.single(names)}`;
}

const EXIT_TAIL = `\n${FN_EXIT}: `;

function renderQwen(messages: Message[], functions: FunctionDef[], opts: RenderOptions): Message[] {
  if (functions.length === 0 || opts.functionChoice === 'none') {
    return foldTrailingAssistant(functionsToText(messages, opts.lang));
  }
  const choice = opts.functionChoice;
  if (choice !== 'auto' && !functions.some((f) => f.name === choice || modelName(f) === choice)) {
    throw new Error(
      `functionChoice "${choice}" is not one of the available tools (${functions.map((f) => f.name).join(', ')}).`,
    );
  }
  const drafts: Draft[] = [];
  for (const msg of messages) {
    const last = drafts[drafts.length - 1];
    if (msg.role === 'system' || msg.role === 'user') {
      drafts.push({ role: msg.role, items: itemsOf(msg.content) });
    } else if (msg.role === 'assistant') {
      const items = itemsOf(msg.content);
      if (msg.function_call) {
        const { name } = msg.function_call;
        let args = msg.function_call.arguments;
        if (args.startsWith('```')) args = `\n${args}`; // so a code block renders as Markdown
        const sep = last?.role === 'assistant' || textOf(items) ? '\n' : '';
        appendText(items, `${sep}${FN_NAME}: ${name}\n${FN_ARGS}: ${args}`);
      }
      if (last?.role === 'assistant') appendItems(last.items, items);
      else drafts.push({ role: 'assistant', items });
    } else {
      // Upstream asserts a result follows an assistant message; tolerate a stray one instead.
      const target: Draft = last?.role === 'assistant' ? last : { role: 'assistant', items: [] };
      if (target !== last) drafts.push(target);
      const tail = trailingText(target.items);
      // Parallel results share one ✿RETURN✿: drop the previous result's exit marker before adding this one.
      if (tail.endsWith(EXIT_TAIL)) setTrailingText(target.items, tail.slice(0, -EXIT_TAIL.length));
      appendText(target.items, `\n${FN_RESULT}: `);
      appendItems(target.items, itemsOf(msg.content));
      appendText(target.items, EXIT_TAIL);
    }
  }

  const section = toolSection(functions, opts.lang, opts.parallelFunctionCalls);
  const first = drafts[0];
  if (first?.role === 'system') appendText(first.items, textOf(first.items) ? `\n\n${section}` : section);
  else drafts.unshift({ role: 'system', items: [{ text: section }] });

  const last = drafts[drafts.length - 1];
  if (last?.role === 'assistant') {
    const tail = trailingText(last.items);
    // ": " and the model's next word may be one token; end at "✿RETURN✿" and let the model write ": …" itself.
    if (tail.endsWith(`${FN_EXIT}: `)) setTrailingText(last.items, tail.slice(0, -2));
  }

  if (choice !== 'auto') {
    if (last?.role === 'assistant') {
      if (last.items.length) appendText(last.items, textOf(last.items).trim().endsWith(FN_EXIT) ? ': \n' : '\n');
      appendText(last.items, `${FN_NAME}: ${choice}`);
    } else {
      drafts.push({ role: 'assistant', items: [{ text: `${FN_NAME}: ${choice}` }] });
    }
  }
  return foldTrailingAssistant(drafts.map(finalize));
}

/** Removes a marker (or the start of one) that streaming left at the end, then trims like upstream. */
export function stripPartialMarker(text: string): string {
  let out = text.trimEnd();
  const full = SPECIAL.find((s) => out.endsWith(s));
  if (full) {
    out = out.slice(0, -full.length);
  } else {
    const at = out.lastIndexOf('✿');
    if (at >= 0 && SPECIAL.some((s) => s.startsWith(out.slice(at)))) out = out.slice(0, at);
  }
  return out.replace(/^\n+/, '').trimEnd();
}

/** Cuts junk a model sometimes adds after the arguments: after the last '}' of JSON, or after a closing ``` fence. */
export function trimArgsTail(args: string): string {
  let out = args.trim();
  if (out.startsWith('{')) {
    const k = out.lastIndexOf('}');
    if (k > 0) out = out.slice(0, k + 1);
  }
  if (out.startsWith('```')) {
    const k = out.lastIndexOf('\n```');
    if (k > 0) out = out.slice(0, k + 4);
  }
  return out;
}

function parseQwen(text: string, opts: ParseOptions): ParseResult {
  const messages: Message[] = [];
  const errors: string[] = [];
  let out = text;
  const choice = opts.functionChoice;
  // render() pre-filled "✿FUNCTION✿: <name>"; the model's continuation starts at ✿ARGS✿, so put the prefix back.
  if (choice && choice !== 'auto' && choice !== 'none' && out.trimStart().startsWith(FN_ARGS)) {
    out = `${FN_NAME}: ${choice}\n${out}`;
  }
  // The rendered prompt ended at "✿RETURN✿", so the continuation usually starts with ": ".
  if (out.startsWith(': ')) out = out.slice(2);
  else if (out.startsWith(':')) out = out.slice(1);

  // The stop words should have cut these already; anything after them would be invented results.
  const stopAt = Math.min(...[FN_RESULT, FN_EXIT].map((s) => out.indexOf(s)).filter((i) => i >= 0));
  if (Number.isFinite(stopAt)) {
    errors.push(
      `Discarded text from ${out.slice(stopAt, stopAt + FN_RESULT.length)} on (stop words should have cut it).`,
    );
    out = out.slice(0, stopAt);
  }

  const marker = `${FN_NAME}:`;
  const at = out.indexOf(marker);
  if (at < 0) {
    const shown = stripPartialMarker(out);
    if (shown) messages.push({ role: 'assistant', content: shown });
    return { messages, errors };
  }
  if (at > 0) {
    const shown = stripPartialMarker(out.slice(0, at).replace(/^\n+/, '').trimEnd());
    if (shown) messages.push({ role: 'assistant', content: shown });
  }

  const argSep = `${FN_ARGS}:`;
  let nextId = 1;
  for (let part of out.slice(at).split(marker)) {
    if (!part) continue;
    if (part.endsWith('\n')) part = part.slice(0, -1);
    const i = part.indexOf(argSep);
    const name = stripPartialMarker(i < 0 ? part.trim() : part.slice(0, i).trim());
    const argList =
      i < 0
        ? ['']
        : part
            .slice(i + argSep.length)
            .split(argSep)
            .map((a) => a.trim());
    if (!name) {
      errors.push('Skipped a ✿FUNCTION✿ marker with no tool name.');
      continue;
    }
    for (const rawArgs of argList) {
      // Upstream leaves extra unset for qwen calls and the agent loop then crashes reading function_id; always set it.
      messages.push({
        role: 'assistant',
        content: '',
        function_call: { name, arguments: trimArgsTail(stripPartialMarker(rawArgs)) },
        extra: { function_id: String(nextId++) },
      });
    }
  }

  if (!opts.parallelFunctionCalls) {
    const firstCall = messages.findIndex((m) => m.function_call);
    if (firstCall >= 0 && messages.length > firstCall + 1) {
      errors.push(`Parallel calls are off: kept the first call, dropped ${messages.length - firstCall - 1}.`);
      messages.splice(firstCall + 1);
    }
  }
  return { messages, errors };
}

export const qwenFormat: FncallFormat = {
  name: 'qwen',
  toolStartMarker: FN_NAME,
  stopWords: [FN_RESULT, FN_EXIT],
  continuationPrefixes: [': ', ':'],
  forcedCallMarker: FN_ARGS,
  render: renderQwen,
  parse: parseQwen,
};
