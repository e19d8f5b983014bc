// react_data_analysis: a ReAct agent analyses a CSV file with code_interpreter. The model writes Thought / Action /
// Action Input, the agent runs the code in the sandbox (the file is in its working directory) and feeds back the
// Observation, until the Final Answer (Qwen-Agent's examples/react_data_analysis.py, ported).
//
//   npx tsx examples/react_data_analysis.ts ["question"] [file.csv]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY. resource/stock_prices.csv is made-up data (a random walk), not real prices.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { allowLocalFileStaging, ReActChat, typewriterPrint, type Message } from '@agent-studio/core';

export const STOCK_PRICES = fileURLToPath(new URL('./resource/stock_prices.csv', import.meta.url));

export interface DataAnalysisOptions {
  query?: string;
  /** The data file given with the question; null for none. */
  file?: string | null;
  write?: (text: string) => void;
}

export async function main({
  query = 'pd.head the file first and then help me draw a line chart to show the changes in stock prices',
  file = STOCK_PRICES,
  write = (text) => process.stdout.write(text),
}: DataAnalysisOptions = {}): Promise<Message[]> {
  allowLocalFileStaging(); // the data file is a local file this script's own user names
  const bot = new ReActChat({
    llm: { model: process.env.OPENAI_MODEL ?? 'qwen-max', model_server: process.env.OPENAI_BASE_URL ?? 'dashscope' },
    name: 'code interpreter',
    description: 'This agent can run code to solve the problem',
    functionList: ['code_interpreter'],
  });

  const content = file ? [{ text: query }, { file }] : query;
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run([{ role: 'user', content }])) printed = typewriterPrint(response, printed, write);
  write('\n');
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ query: process.argv[2], file: process.argv[3] }).then(
    () => process.exit(0), // the sandbox's interpreter would keep the process alive
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
