// function_calling: the model layer on its own, without an agent. The script offers the model one function, runs
// the call the model asks for itself, hands the result back and prints the model's answer (Qwen-Agent's
// examples/function_calling.py, ported).
//
//   npx tsx examples/function_calling.ts [nous|qwen]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY. The argument picks how the functions are written into the prompt (default nous).
import { pathToFileURL } from 'node:url';
import { getChatModel, type ChatModel, type FunctionDef, type GenerateCfg, type Message } from '@agent-studio/core';

/** A stand-in for a real weather service: the same answer every time. */
export function getCurrentWeather(location: string, unit = 'fahrenheit'): string {
  const place = location.toLowerCase();
  if (place.includes('tokyo')) return JSON.stringify({ location: 'Tokyo', temperature: '10', unit: 'celsius' });
  if (place.includes('san francisco'))
    return JSON.stringify({ location: 'San Francisco', temperature: '72', unit: 'fahrenheit' });
  if (place.includes('paris')) return JSON.stringify({ location: 'Paris', temperature: '22', unit: 'celsius' });
  return JSON.stringify({ location, temperature: 'unknown', unit });
}

export const WEATHER_FUNCTION: FunctionDef = {
  name: 'get_current_weather',
  description: 'Get the current weather in a given location',
  parameters: {
    type: 'object',
    properties: {
      location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['location'],
  },
};

/** One model call: its text as it streams, then the messages it returned. */
export async function chatAndPrint(
  llm: ChatModel,
  messages: Message[],
  functions: FunctionDef[],
  write: (text: string) => void,
  cfg?: GenerateCfg,
): Promise<Message[]> {
  const result = await llm.chat({ messages, functions, cfg }, (event) => {
    if (event.type === 'text' || event.type === 'reasoning') write(event.text);
  });
  write(`\n${JSON.stringify(result.messages)}\n`);
  return result.messages;
}

export interface FunctionCallingOptions {
  /** How the functions are written into the prompt of a server without the tools API. */
  fncallPromptType?: 'nous' | 'qwen';
  write?: (text: string) => void;
}

export async function main({
  fncallPromptType = 'nous',
  write = (text) => process.stdout.write(text),
}: FunctionCallingOptions = {}): Promise<Message[]> {
  const llm = getChatModel({
    model: process.env.OPENAI_MODEL ?? 'qwen-plus-latest',
    model_server: process.env.OPENAI_BASE_URL ?? 'dashscope',
    generate_cfg: { fncall_prompt_type: fncallPromptType },
  });

  // 1. The conversation and the functions go to the model.
  const messages: Message[] = [{ role: 'user', content: "What's the weather like in San Francisco?" }];
  const functions = [WEATHER_FUNCTION];
  write('# Assistant Response 1:\n');
  messages.push(...(await chatAndPrint(llm, messages, functions, write)));

  // 2. Did the model ask for the function? 3. Run it (the arguments are the model's: they may not parse).
  const call = messages[messages.length - 1]?.function_call;
  if (!call) return messages;
  const available: Record<string, (location: string, unit?: string) => string> = {
    get_current_weather: getCurrentWeather,
  };
  const args = JSON.parse(call.arguments) as { location: string; unit?: string };
  const result = available[call.name]!(args.location, args.unit);
  write(`# Function Response:\n${result}\n`);

  // 4. The result goes back, and the model answers with it.
  messages.push({ role: 'function', name: call.name, content: result });
  write('# Assistant Response 2:\n');
  messages.push(...(await chatAndPrint(llm, messages, functions, write)));
  return messages;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const mode = process.argv[2] === 'qwen' ? 'qwen' : 'nous';
  main({ fncallPromptType: mode }).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
