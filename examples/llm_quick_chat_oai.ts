// llm_quick_chat_oai: talking to a model in OpenAI's own shapes. Messages and tools are written as for OpenAI's
// Chat Completions, and each answer comes back as `{choices: [{message}]}`, streamed as growing snapshots; the
// script keeps the conversation going with them (Qwen-Agent's examples/llm_quick_chat_oai.py, ported).
//
//   npx tsx examples/llm_quick_chat_oai.ts
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import {
  getChatModel,
  quickChatOai,
  type ChatModel,
  type OaiChatMessage,
  type OaiChatResponse,
  type OaiTool,
} from '@agent-studio/core';

const TOOLS: OaiTool[] = [
  {
    type: 'function',
    function: {
      name: 'image_gen',
      description:
        'AI painting (image generation): takes a text description of the image and returns the URL of the picture drawn from it.',
      parameters: {
        type: 'object',
        properties: {
          prompt: {
            type: 'string',
            description: 'What the picture shows in detail (the characters, the setting, what happens), in English.',
          },
        },
        required: ['prompt'],
      },
    },
  },
];

/** Prints every snapshot of one answer, as upstream does, and returns the last (complete) one. */
async function chat(
  llm: ChatModel,
  messages: OaiChatMessage[],
  write: (text: string) => void,
  tools?: OaiTool[],
): Promise<OaiChatResponse> {
  let last: OaiChatResponse | undefined;
  for await (const response of quickChatOai(llm, messages, tools)) {
    write(`${JSON.stringify(response)}\n`);
    last = response;
  }
  return last!;
}

export async function main({
  write = (text: string) => process.stdout.write(text),
}: { write?: (text: string) => void } = {}): Promise<OaiChatMessage[]> {
  const llm = getChatModel({
    model: process.env.OPENAI_MODEL ?? 'qwen-max',
    model_server: process.env.OPENAI_BASE_URL ?? 'dashscope',
  });

  // A plain question.
  const messages: OaiChatMessage[] = [{ role: 'user', content: 'Who are you?' }];
  messages.push((await chat(llm, messages, write)).choices[0].message);

  // A request the model answers with a tool call.
  messages.push({ role: 'user', content: 'Draw a cute kitten.' });
  const answer = (await chat(llm, messages, write, TOOLS)).choices[0].message;
  messages.push(answer);

  // The tool's result, made up here (nothing is drawn), goes back in OpenAI's `tool` message.
  messages.push({
    role: 'tool',
    name: 'image_gen',
    tool_call_id: answer.tool_calls[0]?.id,
    content: '![kitten](https://example.com/images/kitten.png)',
  });
  messages.push((await chat(llm, messages, write, TOOLS)).choices[0].message);
  return messages;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
