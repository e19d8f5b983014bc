// llm_vl_mix_text: one conversation, two models taking turns. A vision model describes a picture, a text model goes
// on with the same history (it is told of the picture instead of being sent it), calls a function, and the vision
// model describes the picture the function drew (Qwen-Agent's examples/llm_vl_mix_text.py, ported).
//
//   npx tsx examples/llm_vl_mix_text.ts [image URL]
//
// The models: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server, used as both; a vision
// model then), else DashScope's qwen-vl-max and qwen-max with DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import { getChatModel, type ChatModel, type FunctionDef, type Message, type QwenLlmConfig } from '@agent-studio/core';

export const DEFAULT_IMAGE = 'https://dashscope.oss-cn-beijing.aliyuncs.com/images/dog_and_girl.jpeg';
/** The picture the (made-up) image_gen result shows. */
export const DRAWN_IMAGE = 'https://image.pollinations.ai/prompt/a%20cute%20kitten';

const IMAGE_GEN: FunctionDef = {
  name: 'image_gen',
  description: 'AI painting (image generation): give a text description, get back the URL of the picture drawn.',
  parameters: {
    type: 'object',
    properties: {
      prompt: {
        type: 'string',
        description: 'What the picture shows in detail (characters, setting, action), in English.',
      },
    },
    required: ['prompt'],
  },
};

/** One call: prints the answer as it streams and adds the answer's messages to the conversation. */
async function turn(llm: ChatModel, messages: Message[], write: (text: string) => void, functions?: FunctionDef[]) {
  write(`# ${llm.model}:\n`);
  const result = await llm.chat({ messages, functions }, (e) => {
    if (e.type === 'text') write(e.text);
  });
  write(`\n${JSON.stringify(result.messages)}\n`);
  messages.push(...result.messages);
}

export async function main({
  image = DEFAULT_IMAGE,
  write = (text: string) => process.stdout.write(text),
}: { image?: string; write?: (text: string) => void } = {}): Promise<Message[]> {
  const server = process.env.OPENAI_BASE_URL;
  const llmCfg: QwenLlmConfig = { model: process.env.OPENAI_MODEL ?? 'qwen-max', model_server: server ?? 'dashscope' };
  const llmCfgVl: QwenLlmConfig = server
    ? { model: process.env.OPENAI_MODEL, model_server: server, model_type: 'qwenvl_oai' }
    : { model: 'qwen-vl-max', model_server: 'dashscope' };
  const llmVl = getChatModel(llmCfgVl);
  const llm = getChatModel(llmCfg);

  const messages: Message[] = [{ role: 'user', content: [{ text: 'Find the dog and describe it.' }, { image }] }];
  await turn(llmVl, messages, write);
  messages.push({ role: 'user', content: [{ text: 'Describe it in more detail.' }] });
  await turn(llmVl, messages, write);

  messages.push({ role: 'user', content: 'Who are you?' });
  await turn(llm, messages, write);
  messages.push({ role: 'user', content: 'Draw a cute kitten.' });
  await turn(llm, messages, write, [IMAGE_GEN]);
  // The function's result, made up (nothing is drawn here).
  messages.push({ role: 'function', name: 'image_gen', content: `![kitten](${DRAWN_IMAGE})` });
  await turn(llm, messages, write, [IMAGE_GEN]);

  messages.push({ role: 'user', content: [{ text: 'Can you describe this picture?' }, { image: DRAWN_IMAGE }] });
  await turn(llmVl, messages, write);
  return messages;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ image: process.argv[2] }).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
