// assistant_qwq: a reasoning model with a tool. QwQ thinks before it answers (printed under [THINK]) and may ask for
// several pictures in one answer; each call runs and the results go back together (Qwen-Agent's
// examples/assistant_qwq.py, ported; the pictures come from my_image_gen, assistant_add_custom_tool.ts).
//
//   npx tsx examples/assistant_qwq.ts ["question"]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope's qwq-32b
// with DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import { Assistant, typewriterPrint, type Message } from '@agent-studio/core';
import './assistant_add_custom_tool'; // registers my_image_gen

export async function main({
  query = 'Draw a cat, then a dog, then the two of them playing together: three pictures.',
  write = (text: string) => process.stdout.write(text),
}: { query?: string; write?: (text: string) => void } = {}): Promise<Message[]> {
  const bot = new Assistant({
    llm: process.env.OPENAI_BASE_URL
      ? {
          model: process.env.OPENAI_MODEL,
          model_server: process.env.OPENAI_BASE_URL,
          generate_cfg: { fncall_prompt_type: 'nous' },
        }
      : { model: 'qwq-32b', model_type: 'qwen_dashscope', generate_cfg: { fncall_prompt_type: 'nous' } },
    functionList: ['my_image_gen'],
    name: 'QwQ-32B Tool-calling Demo',
    description: "A demo of QwQ-32B's tool calling: add your own tools and play with them.",
  });
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run([{ role: 'user', content: query }]))
    printed = typewriterPrint(response, printed, write);
  write('\n');
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ query: process.argv[2] }).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
