// visual_storytelling: a workflow of two agents in your own code. A vision assistant describes the picture in
// detail; a writing assistant, given writing tips as its knowledge, turns the description into a story. The run yields
// both agents' messages as one growing list, as an agent's run does (Qwen-Agent's examples/visual_storytelling.py,
// ported: upstream writes the workflow as an Agent subclass; here it is a small class of its own).
//
//   npx tsx examples/visual_storytelling.ts [image URL]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible vision model, used for both),
// else DashScope's qwen-vl-max and qwen-max with DASHSCOPE_API_KEY.
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  allowLocalFileStaging,
  Assistant,
  typewriterPrint,
  type Message,
  type QwenLlmConfig,
  type ToolSpec,
} from '@agent-studio/core';

export const DEFAULT_IMAGE = 'https://dashscope.oss-cn-beijing.aliyuncs.com/images/dog_and_girl.jpeg';
export const WRITING_TIPS = fileURLToPath(new URL('./resource/writing_tips.md', import.meta.url));

export class VisualStorytelling {
  private readonly imageAgent: Assistant;
  private readonly writingAgent: Assistant;

  constructor(llm: QwenLlmConfig, vlLlm: QwenLlmConfig, functionList: ToolSpec[] = []) {
    this.imageAgent = new Assistant({ llm: vlLlm, name: 'image describer' });
    this.writingAgent = new Assistant({
      llm,
      name: 'story writer',
      functionList,
      systemMessage:
        'You are a student with a rich imagination. First understand the picture from its description, then use ' +
        'the writing techniques in the knowledge base and your imagination to write a narrative of about 800 words.',
      files: [WRITING_TIPS],
    });
  }

  /** The new messages of both steps so far, growing (replace, don't append). */
  async *run(messages: readonly Message[]): AsyncGenerator<Message[]> {
    const last = messages.at(-1);
    if (!last || typeof last.content === 'string' || !last.content.some((i) => i.image))
      throw new Error('VisualStorytelling needs a message with a picture.');

    const asked: Message[] = [
      ...messages.slice(0, -1),
      { ...last, content: [...last.content, { text: 'Describe every detail of this picture.' }] },
    ];
    let described: Message[] = [];
    for await (described of this.imageAgent.run(asked)) yield described;

    const story: Message[] = [
      ...asked,
      ...described,
      { role: 'user', content: 'Now write your narrative from the picture described above.' },
    ];
    for await (const written of this.writingAgent.run(story)) yield [...described, ...written];
  }
}

export async function main({
  image = DEFAULT_IMAGE,
  write = (text: string) => process.stdout.write(text),
}: { image?: string; write?: (text: string) => void } = {}): Promise<Message[]> {
  allowLocalFileStaging(); // the writing tips are a local file of this script
  const server = process.env.OPENAI_BASE_URL;
  const bot = new VisualStorytelling(
    { model: process.env.OPENAI_MODEL ?? 'qwen-max', model_server: server ?? 'dashscope' },
    server
      ? { model: process.env.OPENAI_MODEL, model_server: server, model_type: 'qwenvl_oai' }
      : { model: 'qwen-vl-max' },
  );
  let printed = '';
  let response: Message[] = [];
  for await (response of bot.run([{ role: 'user', content: [{ image }] }]))
    printed = typewriterPrint(response, printed, write);
  write('\n');
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ image: process.argv[2] }).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
