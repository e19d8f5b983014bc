// assistant_rag: questions about a document. The Assistant downloads the file given with the question, searches it
// for the passages that match, puts them in its system message as a knowledge base and answers from them
// (Qwen-Agent's examples/assistant_rag.py, ported). PDF, Word, PowerPoint, Excel, CSV, HTML, Markdown and text.
//
//   npx tsx examples/assistant_rag.ts ["question"] [file path or URL]
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY.
import { pathToFileURL } from 'node:url';
import { allowLocalFileStaging, Assistant, typewriterPrint, type Message } from '@agent-studio/core';

/** "Attention Is All You Need", as upstream asks about it. */
export const DEFAULT_FILE = 'https://arxiv.org/pdf/1706.03762.pdf';

export interface RagOptions {
  query?: string;
  file?: string;
  write?: (text: string) => void;
}

export async function main({
  query = 'Introduce figure 1',
  file = DEFAULT_FILE,
  write = (text) => process.stdout.write(text),
}: RagOptions = {}): Promise<Message[]> {
  allowLocalFileStaging(); // a local path on the command line is this script's own user's
  const bot = new Assistant({
    llm: {
      model: process.env.OPENAI_MODEL ?? 'qwen-plus-latest',
      model_server: process.env.OPENAI_BASE_URL ?? 'dashscope',
    },
    name: 'Assistant',
    description: 'Answers with RAG over the documents it is given: PDF, Word, PowerPoint, text, HTML and more.',
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
