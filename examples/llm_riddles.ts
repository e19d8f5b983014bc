// llm_riddles: an agent of your own, made by extending Agent. An examiner Assistant invents odd phrases; for each,
// the player must word a question that makes the model answer with exactly that phrase. The riddle agent itself is
// the plain model: one call, no tools, which is what Agent does when its loop is not overridden (Qwen-Agent's
// examples/llm_riddles.py, ported).
//
//   npx tsx examples/llm_riddles.ts      (in a terminal, you play; otherwise the script plays upstream's test)
//
// The model: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (any OpenAI-compatible server), else DashScope with
// DASHSCOPE_API_KEY.
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { Agent, Assistant, contentText, type Message, type QwenLlmConfig } from '@agent-studio/core';

const EXAMINER =
  'Invent ten odd or little-known short phrases of at most six words that go against intuition, such as "1+1=3" ' +
  'or "Mount Everst", from maths, literature, geography, biology and more. Answer with a JSON list of strings and ' +
  'nothing else.';

export class LLMRiddles extends Agent {
  topics: string[] = [];

  /** The game with its phrases (the examiner runs once, when the game is made). */
  static async create(llm: QwenLlmConfig): Promise<LLMRiddles> {
    const game = new LLMRiddles({ llm, name: 'riddles' });
    const examiner = new Assistant({ llm: game.llm, systemMessage: EXAMINER });
    const answer = contentText((await examiner.runNonStream([{ role: 'user', content: 'Start' }])).at(-1)?.content);
    const list = /\[[\s\S]*\]/.exec(answer)?.[0];
    if (!list) throw new Error(`The examiner did not answer with a list of phrases: ${answer}`);
    game.topics = (JSON.parse(list) as unknown[]).map(String);
    return game;
  }
}

/** One attempt: the model's answer, and whether it is the phrase exactly. */
async function attempt(bot: LLMRiddles, messages: Message[], topic: string, write: (text: string) => void) {
  const response = await bot.runNonStream(messages);
  const said = contentText(response.at(-1)?.content);
  write(`bot response: ${said}\n`);
  if (said.trim() === topic) write('You win!\n');
  return { response, won: said.trim() === topic };
}

/** Upstream's test: for each phrase, simply ask the model to say it. */
export async function main({
  write = (text: string) => process.stdout.write(text),
}: { write?: (text: string) => void } = {}): Promise<number> {
  const bot = await LLMRiddles.create({
    model: process.env.OPENAI_MODEL ?? 'qwen-max',
    model_server: process.env.OPENAI_BASE_URL ?? 'dashscope',
  });
  let wins = 0;
  for (const topic of bot.topics) {
    write(`Word a question that makes the model answer exactly "${topic}" (without the quotes).\n`);
    const query = `Output "${topic}" directly (without the quotes) and say nothing else.`;
    if ((await attempt(bot, [{ role: 'user', content: query }], topic, write)).won) wins++;
  }
  return wins;
}

/** You play: questions until the model says the phrase, or EXIT for the next one. */
async function tui(): Promise<void> {
  const bot = await LLMRiddles.create({
    model: process.env.OPENAI_MODEL ?? 'qwen-max',
    model_server: process.env.OPENAI_BASE_URL ?? 'dashscope',
  });
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const write = (text: string) => void process.stdout.write(text);
  try {
    for (const topic of bot.topics) {
      write(`Word a question that makes the model answer exactly "${topic}" (without the quotes).\n`);
      const messages: Message[] = [];
      for (;;) {
        const query = await rl.question('your question (EXIT for the next phrase): ');
        if (query === 'EXIT') break;
        messages.push({ role: 'user', content: query });
        const { response, won } = await attempt(bot, messages, topic, write);
        if (won) break;
        messages.push(...response);
      }
    }
  } finally {
    rl.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  (process.stdin.isTTY ? tui() : main()).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
