// multi_agent_router: a Router answers by itself or hands the question to one of its helpers: a vision assistant
// that sees images, and a ReAct agent that draws and runs code. The helper answers the whole conversation (Qwen-Agent's
// examples/multi_agent_router.py, ported).
//
//   npx tsx examples/multi_agent_router.ts ["question"] [image URL]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server; the vision helper sends
// it the images, so it should be a vision model), else DashScope's qwen-max and qwen-vl-max with DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import { Assistant, ReActChat, Router, typewriterPrint, type Message, type QwenLlmConfig } from '@agent-studio/core';
import './assistant_add_custom_tool'; // registers my_image_gen

export const DEFAULT_IMAGE = 'https://dashscope.oss-cn-beijing.aliyuncs.com/images/dog_and_girl.jpeg';

export function initAgentService(): Router {
  const server = process.env.OPENAI_BASE_URL;
  const llmCfg: QwenLlmConfig = { model: process.env.OPENAI_MODEL ?? 'qwen-max', model_server: server ?? 'dashscope' };
  // A vision model: the images of the conversation are sent to it.
  const llmCfgVl: QwenLlmConfig = server
    ? { model: process.env.OPENAI_MODEL, model_server: server, model_type: 'qwenvl_oai' }
    : { model: 'qwen-vl-max' };

  const botVl = new Assistant({ llm: llmCfgVl, name: 'vision assistant', description: 'Understands images.' });
  const botTool = new ReActChat({
    llm: llmCfg,
    name: 'tool assistant',
    description: 'Draws pictures and runs code to solve problems.',
    functionList: ['my_image_gen', 'code_interpreter'],
  });
  // The router is a text assistant too: it answers what needs neither helper.
  return new Router({ llm: llmCfg, agents: [botVl, botTool] });
}

export interface MultiAgentRouterOptions {
  query?: string;
  /** An image URL sent with the question; null for none. */
  image?: string | null;
  write?: (text: string) => void;
}

export async function main({
  query = 'What is in this picture?',
  image = DEFAULT_IMAGE,
  write = (text) => process.stdout.write(text),
}: MultiAgentRouterOptions = {}): Promise<Message[]> {
  const bot = initAgentService();
  const content = image ? [{ text: query }, { image }] : query;
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run([{ role: 'user', content }])) printed = typewriterPrint(response, printed, write);
  write(`\n(answered by ${response[response.length - 1]?.name ?? bot.name})\n`);
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ query: process.argv[2], image: process.argv[3] }).then(
    () => process.exit(0), // the sandbox's interpreter would keep the process alive
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
