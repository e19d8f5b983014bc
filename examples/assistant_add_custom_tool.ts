// assistant_add_custom_tool: a tool of your own next to a builtin one. `my_image_gen` is registered by name and
// draws a picture (it returns the picture's URL); the Assistant then runs code on the picture with code_interpreter,
// choosing the operation from a document it was given (Qwen-Agent's examples/assistant_add_custom_tool.py, ported).
//
//   npx tsx examples/assistant_add_custom_tool.ts ["draw a dog"]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY. code_interpreter runs Python in a sandbox without network (docs/tools.md).
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  allowLocalFileStaging,
  Assistant,
  BaseTool,
  registerTool,
  typewriterPrint,
  type Message,
} from '@agent-studio/core';

/**
 * Draws a picture from a description: the URL of an image service that paints the prompt when the URL is opened
 * (Pollinations, no key needed; `image_server` in the tool's config names another). Besides the URL for the model,
 * the result carries the picture as an image item: code_interpreter, which has no network, finds it downloaded in
 * its working directory.
 */
export class MyImageGen extends BaseTool {
  name = 'my_image_gen';
  description =
    'AI painting (image generation) service: give a text description, get back the URL of the image drawn from it.';
  // Qwen-Agent's older list form of parameters works as well as a JSON Schema.
  parameters = [
    {
      name: 'prompt',
      type: 'string',
      description: 'Detailed description of the desired image content, in English',
      required: true,
    },
  ];

  async call(params: string) {
    const { prompt } = this.parseArgs<{ prompt: string }>(params);
    const server = typeof this.cfg.image_server === 'string' ? this.cfg.image_server : 'https://image.pollinations.ai';
    const imageUrl = `${server.replace(/\/+$/, '')}/prompt/${encodeURIComponent(prompt)}`;
    return [{ text: JSON.stringify({ image_url: imageUrl }) }, { image: imageUrl }];
  }
}
registerTool('my_image_gen')(MyImageGen);

export const IMAGE_OPERATIONS = fileURLToPath(new URL('./resource/image_operations.md', import.meta.url));

export interface CustomToolOptions {
  query?: string;
  /** Where my_image_gen's pictures come from (default Pollinations). */
  imageServer?: string;
  write?: (text: string) => void;
}

export async function main({
  query = 'draw a dog',
  imageServer,
  write = (text) => process.stdout.write(text),
}: CustomToolOptions = {}): Promise<Message[]> {
  allowLocalFileStaging(); // the document below is a local file this script's own user names
  const bot = new Assistant({
    llm: { model: process.env.OPENAI_MODEL ?? 'qwen-max', model_server: process.env.OPENAI_BASE_URL ?? 'dashscope' },
    name: 'AI painting',
    description: 'AI painting service',
    systemMessage:
      "Draw the picture the user asks for first. Then run code on it: the picture is in the code's working " +
      'directory under the last part of its URL. Pick one image operation from the given document and apply it.',
    functionList: [{ name: 'my_image_gen', image_server: imageServer }, 'code_interpreter'],
    files: [IMAGE_OPERATIONS],
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
