// qwen2vl_function_calling: function calling with a vision model. It is shown a picture and asked for a similar one;
// the script runs the drawing function it calls, and the picture drawn goes back to the model as an image, which it
// looks at before answering (Qwen-Agent's examples/qwen2vl_function_calling.py, ported).
//
//   npx tsx examples/qwen2vl_function_calling.ts [image URL]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible vision model), else DashScope's
// qwen-vl-max with DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import { getChatModel, type FunctionDef, type Message, type QwenLlmConfig } from '@agent-studio/core';
import { chatAndPrint } from './function_calling';

export const DEFAULT_IMAGE = 'https://dashscope.oss-cn-beijing.aliyuncs.com/images/dog_and_girl.jpeg';

/** Draws a picture: the URL of an image service that paints the prompt (Pollinations, or `server`). */
export function imageGen(prompt: string, server = 'https://image.pollinations.ai'): string {
  return `${server}/prompt/${encodeURIComponent(prompt)}`;
}

const FUNCTIONS: FunctionDef[] = [
  {
    name: 'image_gen',
    description: 'AI painting (image generation): give a text description, get back the URL of the picture drawn.',
    // Qwen-Agent's older one-parameter form, as upstream writes it here.
    parameters: {
      name: 'prompt',
      type: 'string',
      description: 'What the picture shows in detail (characters, setting, action), in English.',
      required: true,
    },
  },
];

export async function main({
  image = DEFAULT_IMAGE,
  imageServer,
  write = (text: string) => process.stdout.write(text),
}: { image?: string; imageServer?: string; write?: (text: string) => void } = {}): Promise<Message[]> {
  // tool_images: the pictures a function returns are sent to the model too.
  const generate_cfg = { fncall_prompt_type: 'qwen' as const, tool_images: true };
  const llmCfg: QwenLlmConfig = process.env.OPENAI_BASE_URL
    ? {
        model: process.env.OPENAI_MODEL,
        model_server: process.env.OPENAI_BASE_URL,
        model_type: 'qwenvl_oai',
        generate_cfg,
      }
    : { model: 'qwen-vl-max', model_type: 'qwenvl_dashscope', generate_cfg };
  const llm = getChatModel(llmCfg);

  const messages: Message[] = [
    {
      role: 'user',
      content: [
        { image },
        {
          text: 'What is in this picture? Draw one with the same content in a similar style, with a man instead of the woman.',
        },
      ],
    },
  ];
  write('# Assistant Response 1:\n');
  const response = await chatAndPrint(llm, messages, FUNCTIONS, write);
  messages.push(...response);

  for (const msg of response) {
    const call = msg.function_call;
    if (!call) continue;
    if (call.name !== 'image_gen') throw new Error(`The model called ${call.name}, which this script does not have.`);
    const url = imageGen((JSON.parse(call.arguments) as { prompt: string }).prompt, imageServer);
    const result: Message = {
      role: 'function',
      name: call.name,
      content: [{ image: url }, { text: `(the URL of this picture is ${url})` }],
      extra: msg.extra,
    };
    write(`# Function Response:\n${JSON.stringify(result)}\n`);
    messages.push(result);
  }

  write('# Assistant Response 2:\n');
  messages.push(...(await chatAndPrint(llm, messages, FUNCTIONS, write)));
  return messages;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ image: process.argv[2] }).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
