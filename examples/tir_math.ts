// tir_math: tool-integrated reasoning for maths. The model reasons in text and writes ```python blocks; each block
// runs in a fresh sandboxed interpreter and its output is put back into the answer, which the model continues until
// the result is in \boxed{} (Qwen-Agent's examples/tir_math.py, ported).
//
//   npx tsx examples/tir_math.ts ["question"]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server; a maths model such as
// Qwen2.5-Math does best), else DashScope's qwen2.5-math-72b-instruct with DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import { TIRMathAgent, typewriterPrint, type Message } from '@agent-studio/core';

export const TIR_SYSTEM =
  'Solve the problem by reasoning step by step and running Python programs where they help; put the final answer ' +
  'in \\boxed{}.';
/** Chain of thought without programs, for comparison. */
export const COT_SYSTEM = 'Reason step by step and put the final answer in \\boxed{}.';

export async function main({
  query = 'What are the first 10 numbers of the Fibonacci sequence?',
  write = (text: string) => process.stdout.write(text),
}: { query?: string; write?: (text: string) => void } = {}): Promise<Message[]> {
  const bot = new TIRMathAgent({
    llm: process.env.OPENAI_BASE_URL
      ? { model: process.env.OPENAI_MODEL, model_server: process.env.OPENAI_BASE_URL, generate_cfg: { top_k: 1 } }
      : { model: 'qwen2.5-math-72b-instruct', model_type: 'qwen_dashscope', generate_cfg: { top_k: 1 } },
    name: 'Qwen2.5-Math',
    systemMessage: TIR_SYSTEM,
  });
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run([{ role: 'user', content: query }]))
    printed = typewriterPrint(response, printed, write);
  write('\n');
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ query: process.argv[2] }).then(
    () => process.exit(0), // the sandbox's interpreter would keep the process alive
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
