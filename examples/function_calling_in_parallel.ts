// function_calling_in_parallel: one question that needs the same function three times. With
// parallel_function_calls the model asks for all three calls in one answer; the script runs each, returns the
// results in the order of the calls, and the model answers from all of them (Qwen-Agent's
// examples/function_calling_in_parallel.py, ported; the function and the printing are function_calling.ts's).
//
//   npx tsx examples/function_calling_in_parallel.ts
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope's
// OpenAI-compatible mode with DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import { getChatModel, type GenerateCfg, type Message } from '@agent-studio/core';
import { chatAndPrint, getCurrentWeather, WEATHER_FUNCTION } from './function_calling';

export async function main({
  write = (text: string) => process.stdout.write(text),
}: { write?: (text: string) => void } = {}): Promise<Message[]> {
  const llm = getChatModel({
    model: process.env.OPENAI_MODEL ?? 'qwen-plus-latest',
    model_server: process.env.OPENAI_BASE_URL ?? 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    api_key: process.env.OPENAI_BASE_URL ? process.env.OPENAI_API_KEY : process.env.DASHSCOPE_API_KEY,
    generate_cfg: { fncall_prompt_type: 'qwen' },
  });
  // Several calls in one answer (off by default in the qwen format); long histories are cut to the budget.
  const cfg: GenerateCfg = { max_input_tokens: 6500, parallel_function_calls: true };

  const messages: Message[] = [
    { role: 'user', content: "What's the weather like in San Francisco? And what about Tokyo? Paris?" },
  ];
  const functions = [WEATHER_FUNCTION];
  write('# Assistant Response 1:\n');
  const response = await chatAndPrint(llm, messages, functions, write, cfg);
  messages.push(...response);

  const calls = response.filter((m) => m.function_call);
  if (!calls.length) return messages;
  for (const msg of calls) {
    const call = msg.function_call!;
    write('# Function Call:\n');
    const args = JSON.parse(call.arguments) as { location: string; unit?: string };
    const result = getCurrentWeather(args.location, args.unit);
    write(`# Function Response:\n${result}\n`);
    // The results go back in the order of the calls, each tied to its call.
    messages.push({ role: 'function', name: call.name, content: result, extra: msg.extra });
  }

  write('# Assistant Response 2:\n');
  messages.push(...(await chatAndPrint(llm, messages, functions, write, cfg)));
  return messages;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
