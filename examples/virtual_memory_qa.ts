// virtual_memory_qa: questions about a long document with VirtualMemoryAgent. The model searches the document with
// the retrieval tool when it needs to; what is found goes into its system message, and a conversation that grows
// past the model's input is searched the same way (Qwen-Agent's examples/virtual_memory_qa.py, ported).
//
//   npx tsx examples/virtual_memory_qa.ts ["question"] [file path or URL]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import { allowLocalFileStaging, typewriterPrint, VirtualMemoryAgent, type Message } from '@agent-studio/core';

/** The Qwen technical report, as upstream asks about it. */
export const DEFAULT_FILE = 'https://qianwen-res.oss-cn-beijing.aliyuncs.com/QWEN_TECHNICAL_REPORT.pdf';

export async function main({
  query = 'Briefly list the contributions of this paper',
  file = DEFAULT_FILE,
  write = (text: string) => process.stdout.write(text),
}: { query?: string; file?: string; write?: (text: string) => void } = {}): Promise<Message[]> {
  allowLocalFileStaging(); // a local path on the command line is this script's own user's
  const bot = new VirtualMemoryAgent({
    llm: { model: process.env.OPENAI_MODEL ?? 'qwen-max', model_server: process.env.OPENAI_BASE_URL ?? 'dashscope' },
    systemMessage: 'A question-answering assistant for documents.',
  });
  let printed = '';
  let response: Message[] = [];
  const messages = [{ role: 'user', content: [{ text: query }, { file }] }];
  for await (response of bot.run(messages)) printed = typewriterPrint(response, printed, write);
  write('\n');
  return response;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main({ query: process.argv[2], file: process.argv[3] }).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
